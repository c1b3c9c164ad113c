import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FilterValue, SortSpec } from '@pagewatch/contracts/list';
import { defaultGridState, loadGridState, saveGridState, withLinkedFilter } from './grid-storage.ts';
import type { GridField, PageSizeChoice, PersistedGridState } from './grid-types.ts';

/**
 * The grid's state: what is remembered per `gridKey` (saved on every change) plus the page
 * number, which the spec keeps out of storage. Filter, sort and page-size changes go back to
 * the first page, since the old page number means nothing under a new query.
 */
export function useGridState(gridKey: string, columns: readonly GridField[], defaultSort?: SortSpec[], linkedFilter?: string | null) {
  // Read once: the grid key and the list's columns do not change during a grid's life.
  const [state, setState] = useState<PersistedGridState>(() => {
    const stored = loadGridState(gridKey, columns, defaultSort);
    return linkedFilter ? withLinkedFilter(stored, linkedFilter, columns) : stored;
  });
  const [pageIndex, setPageIndex] = useState(0);

  useEffect(() => saveGridState(gridKey, state), [gridKey, state]);

  const update = useCallback((patch: Partial<PersistedGridState>, resetPage: boolean) => {
    setState((s) => ({ ...s, ...patch }));
    if (resetPage) setPageIndex(0);
  }, []);

  const actions = useMemo(
    () => ({
      setPageIndex,
      setSort: (sort: SortSpec[]) => update({ sort }, true),
      setPageSize: (pageSize: PageSizeChoice) => update({ pageSize }, true),
      setFilterValue: (field: string, value: FilterValue) => {
        setState((s) => {
          const filterRow = { ...s.filterRow };
          if (value === null || value === '') delete filterRow[field];
          else filterRow[field] = value;
          return { ...s, filterRow };
        });
        setPageIndex(0);
      },
      setHeaderFilter: (field: string, values: FilterValue[]) => {
        setState((s) => {
          const headerFilters = { ...s.headerFilters };
          if (values.length) headerFilters[field] = values;
          else delete headerFilters[field];
          return { ...s, headerFilters };
        });
        setPageIndex(0);
      },
      resetFilters: () => update({ filterRow: {}, headerFilters: {} }, true),
      setHidden: (hidden: string[]) => update({ hidden }, false),
      setColumnOrder: (columnOrder: string[]) => update({ columnOrder }, false),
      setWidths: (widths: Record<string, number>) => update({ widths }, false),
      resetColumns: () => {
        const d = defaultGridState(columns);
        update({ columnOrder: d.columnOrder, hidden: d.hidden, widths: d.widths }, false);
      },
    }),
    [update, columns],
  );

  const filtered = Object.keys(state.filterRow).length > 0 || Object.keys(state.headerFilters).length > 0;
  return { state, pageIndex, filtered, ...actions };
}

export type GridStateApi = ReturnType<typeof useGridState>;
