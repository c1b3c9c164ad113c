import { useEffect, useMemo, useState } from 'react';
import {
  getCoreRowModel,
  getExpandedRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { hasHeaderFilter } from './grid-header-filter.tsx';
import type { RowId } from './grid-tree.ts';
import type { GridColumn } from './grid-types.ts';
import { cellValue } from './use-grid-data.ts';
import type { GridStateApi } from './use-grid-state.ts';

let measure: CanvasRenderingContext2D | null | undefined;
/** The width a header's text takes in the header's font, with its padding, sort arrow and filter button; capped at 320 px. */
function headerWidth(text: string, sortable: boolean, filtered: boolean): number {
  if (measure === undefined) {
    measure = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (measure) measure.font = `600 14px ${getComputedStyle(document.body).fontFamily}`;
  }
  if (!measure) return 0;
  return Math.min(320, Math.ceil(measure.measureText(text).width) + 16 + 6 + (sortable ? 18 : 0) + (filtered ? 28 : 0));
}

/**
 * The grid's table (TanStack): its columns at their widths (never narrower than the header),
 * the sort, order, visibility and widths the grid remembers, and a tree's expanded rows.
 */
export function useGridTable<Row>({ columns, rows, getRowId, getSubRows, grid, filter, tree, defaultExpanded }: {
  columns: readonly GridColumn<Row>[];
  rows: Row[];
  getRowId: (row: Row) => RowId;
  getSubRows: ((row: Row) => Row[] | undefined) | undefined;
  grid: GridStateApi;
  filter: FilterExpression | null;
  tree: boolean;
  defaultExpanded: boolean;
}) {
  const { t } = useTranslation();
  const { state } = grid;
  const tableColumns = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((c) => ({
        id: c.field,
        accessorFn: (row: Row) => cellValue(c, row, c.field),
        header: () => t(c.header),
        // Never narrower than its header (the Russian ones run long): a width the user sets still wins.
        size: Math.max(c.width ?? 150, headerWidth(t(c.header), !!c.sortable, hasHeaderFilter(c))),
        minSize: 50,
        enableSorting: !!c.sortable,
        enableResizing: c.resizable ?? true,
        sortDescFirst: false,
      })),
    [columns, t],
  );
  const sorting: SortingState = state.sort.map((s) => ({ id: s.field, desc: s.dir === 'DESC' }));
  const [expanded, setExpanded] = useState<ExpandedState>(defaultExpanded ? true : {});
  // A filtered tree opens up, or its matches would hide inside collapsed parents.
  const filterKey = JSON.stringify(filter);
  useEffect(() => {
    if (tree && filterKey !== 'null') setExpanded(true);
  }, [tree, filterKey]);
  const resolve = <T,>(u: Updater<T>, old: T): T => (typeof u === 'function' ? (u as (o: T) => T)(old) : u);

  const table = useReactTable({
    data: rows,
    columns: tableColumns,
    getRowId: (row) => String(getRowId(row)),
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getSubRows,
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    enableMultiSort: true,
    enableSortingRemoval: true,
    columnResizeMode: 'onChange',
    state: {
      sorting,
      columnOrder: state.columnOrder,
      columnVisibility: Object.fromEntries(state.hidden.map((f) => [f, false])),
      columnSizing: state.widths,
      expanded,
    },
    onSortingChange: (u) => grid.setSort(resolve(u, sorting).map((s) => ({ field: s.id, dir: s.desc ? 'DESC' : 'ASC' }))),
    onColumnSizingChange: (u) => grid.setWidths(resolve(u, state.widths)),
    onExpandedChange: setExpanded,
  });
  return table;
}
