import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LoadingOverlay } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { FilterExpression, List, SortSpec } from '@pagewatch/contracts/list';
import { GridBody } from './grid-body.tsx';
import { buildFilter } from './grid-filter.ts';
import { GridFilterRow } from './grid-filter-row.tsx';
import { GridHeader } from './grid-header.tsx';
import { effectivePageSize } from './grid-page-size.ts';
import { GridPager } from './grid-pager.tsx';
import { GridLoadError, GridToolbar } from './grid-toolbar.tsx';
import { SELECT_WIDTH, type GridSelection } from './grid-selection.tsx';
import type { RowId } from './grid-tree.ts';
import type { GridColumn, RowOpenOptions } from './grid-types.ts';
import { useGridData, type GridData } from './use-grid-data.ts';
import { useFillHeight, useHeight } from './use-grid-layout.ts';
import { useGridState, type GridStateApi } from './use-grid-state.ts';
import { useGridTable } from './use-grid-table.ts';
import classes from './data-grid.module.css';

export type DataGridProps<Row> = {
  /** Storage key of the remembered state (columns, order, widths, sort, filters, page size). */
  gridKey: string;
  /** The filter of the link that opened the grid (`gridLink`), read once over the remembered one. */
  linkedFilter?: string | null;
  /** Keep stable (module constant or useMemo): the grid reads the defaults once. */
  columns: readonly GridColumn<Row>[];
  getRowId: (row: Row) => RowId;
  /** Remote data: the list (contracts) whose API pages, sorts and filters the rows; its default sort applies. */
  list?: Pick<List, 'endpoint' | 'defaultSort'>;
  /** Remote data by path alone (`/users`), for an API that is not a declared list. */
  endpoint?: string;
  /** The screen's own query parameters of a remote list (a report's filter), sent with each page request. */
  params?: string;
  /** Told how many rows the grid lists, whenever that changes (a report's export buttons). */
  onTotalRows?: (totalRows: number) => void;
  /** Local data, filtered and sorted in the browser (tree grids that load everything at once). */
  data?: readonly Row[];
  /** Remote grids page by default; local ones show every row unless asked. */
  paged?: boolean;
  /** The screen's own condition, joined with `and` to the user's filters (e.g. "top-level only"). */
  baseFilter?: FilterExpression | null;
  /**
   * The filter panel: filter row, header filters and the reset button (default on). Off hides
   * them and ignores any stored filter values (spec: the logs grid needs BTN_CLEAR_FILTER.EXECUTE).
   */
  filterPanel?: boolean;
  defaultSort?: SortSpec[];
  /** Path of a row's page: click navigates, ctrl/cmd/middle click opens a new tab. */
  rowHref?: (row: Row) => string;
  /** Called instead when opening a row is not a navigation. */
  onRowOpen?: (row: Row, options: RowOpenOptions) => void;
  highlightId?: RowId | null;
  /** Left side of the toolbar: the screen's actions (Create, export...). */
  toolbar?: ReactNode;
  /** Tree rows: children of a row, or a parent id per row of a flat list. */
  getSubRows?: (row: Row) => Row[] | undefined;
  getParentId?: (row: Row) => RowId | null | undefined;
  defaultExpanded?: boolean;
  /** Row drag and drop; `target` null means dropped outside any row (to the top level). */
  onRowDrop?: (dragged: Row, target: Row | null) => void;
  canDragRow?: (row: Row) => boolean;
  /** Local data that is still loading or failed to load (remote grids know this themselves). */
  loading?: boolean;
  /** What the body says when there are no rows (default: "No data"), e.g. why there are none yet. */
  emptyText?: ReactNode;
  error?: Error | null;
  /** Pixel height, or (default) fill the window below the grid's top, less `fillOffset` (default: the page's bottom padding). */
  height?: number | 'fill';
  fillOffset?: number;
  /**
   * Row checkboxes (off unless `onSelectionChange` is given): the ticked ids, kept by the screen
   * across pages, and the handler that receives the new list.
   */
  selectedIds?: readonly RowId[];
  onSelectionChange?: (ids: RowId[]) => void;
};

export function DataGrid<Row>(props: DataGridProps<Row>) {
  const endpoint = props.list?.endpoint ?? props.endpoint;
  const defaultSort = useMemo(() => props.defaultSort ?? (props.list ? [...props.list.defaultSort] : undefined), [props.defaultSort, props.list]);
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { columns, getRowId } = props;
  const grid = useGridState(props.gridKey, columns, defaultSort, props.linkedFilter);
  const { state } = grid;
  const tree = !!(props.getSubRows || props.getParentId);
  const paged = props.paged ?? !props.data;

  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const fillHeight = useFillHeight(rootRef, props.height === undefined || props.height === 'fill', props.fillOffset);
  const headerHeight = useHeight(headRef);
  const scrollHeight = useHeight(scrollRef);
  const bodyHeight = scrollHeight > 0 && headerHeight > 0 ? scrollHeight - headerHeight : null;
  const pageSize = effectivePageSize(state.pageSize, bodyHeight);

  const byField = useMemo(() => new Map(columns.map((c) => [c.field, c])), [columns]);
  const columnOf = useCallback((field: string) => byField.get(field)!, [byField]);
  const filterPanel = props.filterPanel ?? true;
  const filter = useMemo(
    () => (filterPanel ? buildFilter(columns, state.filterRow, state.headerFilters, props.baseFilter) : buildFilter(columns, {}, {}, props.baseFilter)),
    [filterPanel, columns, state.filterRow, state.headerFilters, props.baseFilter],
  );
  const headerColumnOf = useCallback(
    (field: string) => (filterPanel ? byField.get(field)! : { ...byField.get(field)!, filterable: false }),
    [byField, filterPanel],
  );

  const remoteHighlight = endpoint && !props.data && paged ? (props.highlightId ?? null) : null;
  const [locateId, setLocateId] = useState<RowId | null>(remoteHighlight);
  useEffect(() => setLocateId(remoteHighlight), [remoteHighlight]);

  const data = useGridData({
    endpoint,
    params: props.params,
    data: props.data,
    columns,
    sort: state.sort,
    filter,
    pageIndex: grid.pageIndex,
    pageSize,
    paged,
    ready: state.pageSize !== 'fit' || bodyHeight !== null,
    getRowId,
    getSubRows: props.getSubRows,
    getParentId: props.getParentId,
    locate: locateId,
  });

  const turnPage = usePageFollowing({ grid, located: locateId == null ? undefined : data.pageNumber, setLocateId, data, paged, pageSize, onTotalRows: props.onTotalRows });

  const table = useGridTable({ columns, rows: data.rows, getRowId, getSubRows: tree ? data.getSubRows : undefined, grid, filter, tree, defaultExpanded: !!props.defaultExpanded });

  const open = (row: Row, newTab: boolean) => {
    if (props.rowHref) {
      const href = props.rowHref(row);
      if (newTab) window.open(href, '_blank', 'noopener');
      else void navigate(href);
    } else props.onRowOpen?.(row, { newTab });
  };

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const rows = table.getRowModel().rows;
  const { selectedIds, onSelectionChange } = props;
  const selection = useMemo<GridSelection | undefined>(
    () => (onSelectionChange ? { selected: new Set(selectedIds ?? []), onChange: onSelectionChange } : undefined),
    [selectedIds, onSelectionChange],
  );
  const pageIds = selection ? rows.map((r) => getRowId(r.original)) : [];
  const error = props.error ?? data.error;
  const loading = props.loading || data.fetching;
  const height = typeof props.height === 'number' ? props.height : (fillHeight ?? undefined);

  return (
    <div ref={rootRef} className={classes.root} style={{ height }} data-grid-key={props.gridKey}>
      <GridToolbar grid={grid} columns={columns} filterPanel={filterPanel}>
        {props.toolbar}
      </GridToolbar>
      <div ref={scrollRef} className={classes.scroll} role="grid" aria-rowcount={data.totalRows} aria-busy={loading}>
        <div className={classes.inner} style={{ minWidth: table.getTotalSize() + (selection ? SELECT_WIDTH : 0) }}>
          <div ref={headRef} className={classes.head} role="rowgroup">
            <GridHeader
              headers={headers}
              columnOf={headerColumnOf}
              sortCount={state.sort.length}
              headerFilters={state.headerFilters}
              onHeaderFilter={grid.setHeaderFilter}
              selection={selection}
              pageIds={pageIds}
            />
            {filterPanel ? (
              <GridFilterRow headers={headers} columnOf={columnOf} values={state.filterRow} onChange={grid.setFilterValue} selectable={!!selection} />
            ) : null}
          </div>
          {error ? (
            <GridLoadError error={error} onRetry={data.refetch} />
          ) : rows.length === 0 && !loading ? (
            <div className={classes.state} data-testid="grid-empty">
              {props.emptyText ?? t('grid.empty')}
            </div>
          ) : (
            <GridBody
              rows={rows}
              columnOf={columnOf}
              scrollRef={scrollRef}
              headerHeight={headerHeight}
              highlightId={props.highlightId}
              tree={tree}
              onOpen={props.rowHref || props.onRowOpen ? open : undefined}
              onRowDrop={props.onRowDrop}
              canDragRow={props.canDragRow}
              getRowId={getRowId}
              getSubRows={data.getSubRows}
              selection={selection}
            />
          )}
        </div>
        <LoadingOverlay visible={loading} zIndex={3} overlayProps={{ backgroundOpacity: 0.25, blur: 0 }} loaderProps={{ size: 'sm' }} />
      </div>
      <GridPager
        pageIndex={grid.pageIndex}
        pageSize={pageSize}
        choice={state.pageSize}
        totalRows={data.totalRows}
        totalCapped={data.totalCapped}
        paged={paged}
        onPage={turnPage}
        onPageSize={grid.setPageSize}
      />
    </div>
  );
}

/**
 * The page shown: the one that holds a highlighted row while it is being located (turning the
 * page by hand ends that), the last one when rows deleted elsewhere left it past the end; the
 * screen hears of the total. Returns the pager's page turn.
 */
function usePageFollowing<Row>({ grid, located, setLocateId, data, paged, pageSize, onTotalRows }: {
  grid: GridStateApi;
  /** The page of the row being located (1-based), if one is. */
  located: number | undefined;
  setLocateId: (id: RowId | null) => void;
  data: GridData<Row>;
  paged: boolean;
  pageSize: number;
  onTotalRows?: (total: number) => void;
}) {
  // While a highlighted row is being shown, every request asks the server for the page that
  // holds it; turning the page by hand ends that.
  const { pageIndex, setPageIndex } = grid;
  useEffect(() => {
    if (located !== undefined && located - 1 !== pageIndex) setPageIndex(located - 1);
  }, [located, pageIndex, setPageIndex]);
  const turnPage = useCallback(
    (index: number) => {
      setLocateId(null);
      setPageIndex(index);
    },
    [setLocateId, setPageIndex],
  );

  useEffect(() => {
    if (!data.fetching) onTotalRows?.(data.totalRows);
  }, [onTotalRows, data.fetching, data.totalRows]);
  // Rows deleted elsewhere can leave the page number past the end; go to the last page.
  useEffect(() => {
    if (paged && !data.fetching && pageIndex > 0 && pageIndex * pageSize >= data.totalRows) {
      setPageIndex(Math.max(0, Math.ceil(data.totalRows / pageSize) - 1));
    }
  }, [paged, data.fetching, data.totalRows, pageIndex, pageSize, setPageIndex]);
  return turnPage;
}
