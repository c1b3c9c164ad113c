import { useEffect, useMemo } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { listQueryString, MAX_PAGE_SIZE, type FilterExpression, type PageResponse, type SortSpec } from '@pagewatch/contracts/list';
import { api } from '../../lib/api.ts';
import { matchesFilter, sortRows } from './grid-filter.ts';
import { countTreeRows, shapeTree, treeFromParentIds, type RowId } from './grid-tree.ts';
import type { GridColumn } from './grid-types.ts';

/**
 * Pages a grid asked for as it rendered that no grid has shown yet: fresh until then (10 s at
 * most: a render that never reached the page), so the grid that asked does not ask again as it
 * mounts; then stale at once, as every page is, so a grid opened again (after a save elsewhere,
 * say) asks anew.
 */
const unseen = new WeakSet<object>();
const UNSEEN_FRESH_MS = 10_000;
const fresh = (query: object) => (unseen.has(query) ? UNSEEN_FRESH_MS : 0);

/** Every remote grid's queries start with this key; invalidate it after a save to refresh the list. */
export function gridQueryKey(endpoint: string) {
  return ['grid', endpoint] as const;
}

export function cellValue<Row>(col: Pick<GridColumn<Row>, 'field' | 'value'> | undefined, row: Row, field: string): unknown {
  return col?.value ? col.value(row) : (row as Record<string, unknown>)[field];
}

type Source<Row> = {
  endpoint?: string;
  /** Query parameters of the screen's own, sent before the list's. */
  params?: string;
  data?: readonly Row[];
  columns: readonly GridColumn<Row>[];
  sort: SortSpec[];
  filter: FilterExpression | null;
  pageIndex: number;
  pageSize: number;
  paged: boolean;
  /** False until fit-to-height knows its size, so the first request already has the right page. */
  ready: boolean;
  getRowId: (row: Row) => RowId;
  getSubRows?: (row: Row) => Row[] | undefined;
  getParentId?: (row: Row) => RowId | null | undefined;
  /** Asks the server for the page holding this row id (a remote, paged grid). */
  locate?: RowId | null;
};

export type GridData<Row> = {
  rows: Row[];
  getSubRows?: (row: Row) => Row[] | undefined;
  /**
   * Paged: the rows to page through (a paged tree pages its top level). Unpaged: every row the
   * grid lists, at every level of a tree, as the footer's total says.
   */
  totalRows: number;
  /** More rows match than `totalRows` (a big list's count cap): the pager shows "10,000+". */
  totalCapped: boolean;
  /** The page the server answered with when asked to locate a row. */
  pageNumber?: number;
  fetching: boolean;
  error: Error | null;
  refetch: () => void;
};

export function useGridData<Row>(src: Source<Row>): GridData<Row> {
  const remote = !!src.endpoint && !src.data;
  // An unpaged remote grid (a tree loaded at once) asks for the most the server serves.
  const listQuery = listQueryString({
    pageSize: src.paged ? src.pageSize : MAX_PAGE_SIZE,
    pageNumber: src.paged ? src.pageIndex + 1 : 1,
    sort: src.sort,
    filter: src.filter,
    locate: remote && src.paged ? src.locate : null,
  });
  const query = src.params ? `${src.params}&${listQuery}` : listQuery;
  const queryKey = useMemo(() => [...gridQueryKey(src.endpoint ?? ''), query], [src.endpoint, query]);
  const page = {
    queryKey,
    queryFn: ({ signal }: { signal: AbortSignal }) => api<PageResponse<Row>>(src.endpoint!, { query, signal }),
    // The grid shows the server's message in its own error panel; no second toast.
    meta: { silent: true },
    staleTime: fresh,
  };
  // Asked for as the grid renders rather than once it is on the page: a big screen's first
  // render takes a few hundred milliseconds on a slow machine, and the page is on its way
  // meanwhile (issue 22). The query is the same one `useQuery` then reads.
  const client = useQueryClient();
  const enabled = remote && src.ready;
  if (enabled && !client.getQueryState(queryKey)) {
    void client.prefetchQuery(page);
    const asked = client.getQueryCache().find({ queryKey, exact: true });
    if (asked) unseen.add(asked);
  }
  const result = useQuery({
    ...page,
    enabled,
    // Keep the old page on screen under the loading overlay instead of flashing empty.
    placeholderData: keepPreviousData,
  });
  const shown = result.isPlaceholderData ? undefined : result.dataUpdatedAt;
  useEffect(() => {
    const seen = shown ? client.getQueryCache().find({ queryKey, exact: true }) : undefined;
    if (seen) unseen.delete(seen);
  }, [client, shown, queryKey]);

  const local = useMemo(() => {
    if (remote || !src.data) return null;
    const byField = new Map(src.columns.map((c) => [c.field, c]));
    const get = (row: Row, field: string) => cellValue(byField.get(field), row, field);
    const base = src.getParentId
      ? treeFromParentIds(src.data, src.getRowId, src.getParentId)
      : { roots: src.data.slice(), getSubRows: src.getSubRows };
    const shaped = shapeTree(
      base.roots,
      base.getSubRows,
      (row) => matchesFilter(src.filter, (f) => get(row, f)),
      (rows) => sortRows(rows, src.sort, get),
    );
    const start = src.pageIndex * src.pageSize;
    const rows = src.paged ? shaped.roots.slice(start, start + src.pageSize) : shaped.roots;
    const totalRows = src.paged ? shaped.roots.length : countTreeRows(shaped.roots, shaped.getSubRows);
    return { rows, getSubRows: shaped.getSubRows, totalRows };
  }, [remote, src.data, src.columns, src.getParentId, src.getRowId, src.getSubRows, src.filter, src.sort, src.paged, src.pageIndex, src.pageSize]);

  // A remote list of rows with parent ids (a tree loaded in one page) is shaped like local data.
  const pageRows = result.data?.pageRows;
  const remoteTree = useMemo(
    () => (pageRows && src.getParentId ? treeFromParentIds(pageRows, src.getRowId, src.getParentId) : null),
    [pageRows, src.getParentId, src.getRowId],
  );

  if (local) return { ...local, totalCapped: false, fetching: false, error: null, refetch: () => {} };
  return {
    rows: remoteTree?.roots ?? pageRows ?? [],
    getSubRows: remoteTree?.getSubRows ?? src.getSubRows,
    // A tree loaded at once shows all it holds; the server's total may count only its top level.
    totalRows: remoteTree && !src.paged ? countTreeRows(remoteTree.roots, remoteTree.getSubRows) : (result.data?.totalRows ?? 0),
    totalCapped: !!result.data?.totalCapped,
    pageNumber: result.isPlaceholderData ? undefined : result.data?.pageNumber,
    fetching: result.isFetching || (remote && !src.ready),
    error: result.error ?? null,
    refetch: () => void result.refetch(),
  };
}
