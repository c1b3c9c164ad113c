import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, LoadingOverlay, Text } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
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
import { useNavigate } from 'react-router';
import type { FilterExpression, List, SortSpec } from '@pagewatch/contracts/list';
import { errorMessage } from '../../lib/errors.ts';
import { GridBody } from './grid-body.tsx';
import { GridColumnChooser } from './grid-column-chooser.tsx';
import { buildFilter } from './grid-filter.ts';
import { GridFilterRow } from './grid-filter-row.tsx';
import { GridHeader } from './grid-header.tsx';
import { hasHeaderFilter } from './grid-header-filter.tsx';
import { effectivePageSize } from './grid-page-size.ts';
import { GridPager } from './grid-pager.tsx';
import { SELECT_WIDTH, type GridSelection } from './grid-selection.tsx';
import type { RowId } from './grid-tree.ts';
import type { GridColumn, RowOpenOptions } from './grid-types.ts';
import { cellValue, useGridData } from './use-grid-data.ts';
import { useFillHeight, useHeight } from './use-grid-layout.ts';
import { useGridState } from './use-grid-state.ts';
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

  // While a highlighted row is being shown, every request asks the server for the page that
  // holds it; turning the page by hand ends that.
  const { pageIndex, setPageIndex } = grid;
  const located = locateId == null ? undefined : data.pageNumber;
  useEffect(() => {
    if (located !== undefined && located - 1 !== pageIndex) setPageIndex(located - 1);
  }, [located, pageIndex, setPageIndex]);
  const turnPage = useCallback(
    (index: number) => {
      setLocateId(null);
      setPageIndex(index);
    },
    [setPageIndex],
  );

  const { onTotalRows } = props;
  useEffect(() => {
    if (!data.fetching) onTotalRows?.(data.totalRows);
  }, [onTotalRows, data.fetching, data.totalRows]);
  // Rows deleted elsewhere can leave the page number past the end; go to the last page.
  useEffect(() => {
    if (paged && !data.fetching && pageIndex > 0 && pageIndex * pageSize >= data.totalRows) {
      setPageIndex(Math.max(0, Math.ceil(data.totalRows / pageSize) - 1));
    }
  }, [paged, data.fetching, data.totalRows, pageIndex, pageSize, setPageIndex]);

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
  const [expanded, setExpanded] = useState<ExpandedState>(props.defaultExpanded ? true : {});
  // A filtered tree opens up, or its matches would hide inside collapsed parents.
  const filterKey = JSON.stringify(filter);
  useEffect(() => {
    if (tree && filterKey !== 'null') setExpanded(true);
  }, [tree, filterKey]);
  const resolve = <T,>(u: Updater<T>, old: T): T => (typeof u === 'function' ? (u as (o: T) => T)(old) : u);

  const table = useReactTable({
    data: data.rows,
    columns: tableColumns,
    getRowId: (row) => String(getRowId(row)),
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getSubRows: tree ? data.getSubRows : undefined,
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
      <div className={classes.toolbar}>
        <Group gap="xs" style={{ flex: 1 }}>
          {props.toolbar}
        </Group>
        {filterPanel ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFilterOff size={16} />}
            disabled={!grid.filtered}
            onClick={grid.resetFilters}
          >
            {t('grid.resetFilter')}
          </Button>
        ) : null}
        <GridColumnChooser
          columns={columns}
          order={state.columnOrder}
          hidden={state.hidden}
          onOrder={grid.setColumnOrder}
          onHidden={grid.setHidden}
          onReset={grid.resetColumns}
        />
      </div>
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
            <div className={classes.errorState} role="alert">
              <Alert color="red" variant="light" title={t('grid.loadFailed')}>
                {/* The same text as the error toast of spec section 8 (server message, or "cannot connect"). */}
                <Text size="sm">{errorMessage(error)}</Text>
                <Group mt="xs">
                  <Button size="compact-xs" variant="light" color="red" onClick={data.refetch}>
                    {t('grid.retry')}
                  </Button>
                </Group>
              </Alert>
            </div>
          ) : rows.length === 0 && !loading ? (
            <div className={classes.state} data-testid="grid-empty">
              {t('grid.empty')}
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
