import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { flexRender, type Header } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { FilterValue } from '@pagewatch/contracts/list';
import { GridHeaderFilter, hasHeaderFilter } from './grid-header-filter.tsx';
import { SelectAllCell, type GridSelection } from './grid-selection.tsx';
import type { RowId } from './grid-tree.ts';
import type { GridColumn } from './grid-types.ts';
import classes from './data-grid.module.css';

type Props<Row> = {
  headers: Header<Row, unknown>[];
  columnOf: (field: string) => GridColumn<Row>;
  sortCount: number;
  headerFilters: Record<string, FilterValue[]>;
  onHeaderFilter: (field: string, values: FilterValue[]) => void;
  selection?: GridSelection;
  /** Ids of the rows on the page (what the select-all checkbox ticks). */
  pageIds?: RowId[];
};

/** Header cells: click sorts, shift-click adds to the sort (numbered when several), drag the edge to resize. */
export function GridHeader<Row>({ headers, columnOf, sortCount, headerFilters, onHeaderFilter, selection, pageIds }: Props<Row>) {
  const { t } = useTranslation();
  return (
    <div className={classes.headRow} role="row">
      {selection ? <SelectAllCell pageIds={pageIds ?? []} selection={selection} /> : null}
      {headers.map((h) => {
        const col = columnOf(h.column.id);
        const size = h.getSize();
        const sorted = h.column.getIsSorted();
        const canSort = h.column.getCanSort();
        const toggle = h.column.getToggleSortingHandler();
        return (
          <div
            key={h.id}
            className={classes.headCell}
            style={{ flex: `${size} 0 ${size}px` }}
            role="columnheader"
            aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
            data-field={col.field}
          >
            <button
              type="button"
              className={`${classes.headLabel} ${canSort ? classes.sortable : ''}`}
              onClick={canSort ? toggle : undefined}
              title={canSort ? t('grid.sortHint') : undefined}
              tabIndex={canSort ? 0 : -1}
            >
              <span className={classes.cellText}>{flexRender(h.column.columnDef.header, h.getContext())}</span>
              {sorted ? (
                <>
                  {sorted === 'asc' ? (
                    <IconArrowUp size={14} aria-label={t('grid.sortAsc')} />
                  ) : (
                    <IconArrowDown size={14} aria-label={t('grid.sortDesc')} />
                  )}
                  {sortCount > 1 ? <span className={classes.sortOrder}>{h.column.getSortIndex() + 1}</span> : null}
                </>
              ) : null}
            </button>
            {hasHeaderFilter(col) ? (
              <GridHeaderFilter
                column={col as GridColumn<never>}
                selected={headerFilters[col.field] ?? []}
                onChange={(values) => onHeaderFilter(col.field, values)}
              />
            ) : null}
            {h.column.getCanResize() ? (
              <div
                className={`${classes.resizer} ${h.column.getIsResizing() ? classes.resizing : ''}`}
                onMouseDown={h.getResizeHandler()}
                onTouchStart={h.getResizeHandler()}
                onDoubleClick={() => h.column.resetSize()}
                role="separator"
                aria-orientation="vertical"
                aria-label={t('grid.resize')}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
