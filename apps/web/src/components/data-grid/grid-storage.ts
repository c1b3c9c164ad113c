import { DEFAULT_PAGE_SIZE, type FilterValue, type SortSpec } from '@pagewatch/contracts/list';
import { isPageSizeChoice } from './grid-page-size.ts';
import type { GridField, PersistedGridState } from './grid-types.ts';

/** Bump when the stored shape changes incompatibly; older entries are then ignored. */
const VERSION = 1;
const PREFIX = 'pagewatch.grid.';
const MIN_WIDTH = 40;

export function gridStorageKey(gridKey: string): string {
  return PREFIX + gridKey;
}

export function defaultGridState(columns: readonly GridField[], defaultSort: SortSpec[] = []): PersistedGridState {
  return {
    columnOrder: columns.map((c) => c.field),
    hidden: columns.filter((c) => c.hidden).map((c) => c.field),
    widths: {},
    sort: defaultSort,
    filterRow: {},
    headerFilters: {},
    pageSize: DEFAULT_PAGE_SIZE,
  };
}

export function serializeGridState(state: PersistedGridState): string {
  return JSON.stringify({ v: VERSION, ...state });
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isFilterValue = (v: unknown): v is FilterValue =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Reads stored state and keeps only what still fits the columns: a list may gain, lose or
 * rename columns between releases, and a stale entry must never break the grid or send a
 * field the server rejects.
 */
export function parseGridState(
  json: string | null,
  columns: readonly GridField[],
  defaultSort: SortSpec[] = [],
): PersistedGridState {
  const fallback = defaultGridState(columns, defaultSort);
  if (!json) return fallback;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return fallback;
  }
  if (!isRecord(raw) || raw.v !== VERSION) return fallback;
  const byField = new Map(columns.map((c) => [c.field, c]));
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

  const storedOrder = strings(raw.columnOrder).filter((f, i, a) => byField.has(f) && a.indexOf(f) === i);
  const known = new Set(storedOrder);
  const added = columns.filter((c) => !known.has(c.field));
  const columnOrder = [...storedOrder, ...added.map((c) => c.field)];
  // Columns the stored state never saw start as their definition says.
  const hidden = [...strings(raw.hidden).filter((f) => known.has(f)), ...added.filter((c) => c.hidden).map((c) => c.field)];

  const widths: Record<string, number> = {};
  if (isRecord(raw.widths)) {
    for (const [f, w] of Object.entries(raw.widths)) {
      if (byField.has(f) && typeof w === 'number' && Number.isFinite(w)) widths[f] = Math.max(MIN_WIDTH, Math.round(w));
    }
  }

  const sort: SortSpec[] = [];
  if (Array.isArray(raw.sort)) {
    for (const s of raw.sort) {
      if (!isRecord(s) || typeof s.field !== 'string') continue;
      if (!byField.get(s.field)?.sortable || sort.some((x) => x.field === s.field)) continue;
      if (s.dir === 'ASC' || s.dir === 'DESC') sort.push({ field: s.field, dir: s.dir });
    }
  }

  const filterRow: Record<string, FilterValue> = {};
  if (isRecord(raw.filterRow)) {
    for (const [f, v] of Object.entries(raw.filterRow)) {
      if (byField.get(f)?.filterable && isFilterValue(v) && v !== '' && v !== null) filterRow[f] = v;
    }
  }
  const headerFilters: Record<string, FilterValue[]> = {};
  if (isRecord(raw.headerFilters)) {
    for (const [f, v] of Object.entries(raw.headerFilters)) {
      if (!byField.get(f)?.filterable || !Array.isArray(v)) continue;
      const values = v.filter(isFilterValue);
      if (values.length) headerFilters[f] = values;
    }
  }

  const pageSize = isPageSizeChoice(raw.pageSize) ? raw.pageSize : fallback.pageSize;
  return { columnOrder, hidden, widths, sort, filterRow, headerFilters, pageSize };
}

/** A grid's address filtered by a link (home's figures): `/devices?filter=…`, read by `withLinkedFilter`. */
export function gridLink(path: string, filter: { filterRow?: Record<string, FilterValue>; headerFilters?: Record<string, FilterValue[]> }): string {
  return `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

/**
 * A grid opened by such a link: the link's filter-row values and header choices replace the
 * remembered ones (what the columns do not know is dropped), and the filtered columns show.
 */
export function withLinkedFilter(state: PersistedGridState, link: string, columns: readonly GridField[]): PersistedGridState {
  let raw: unknown;
  try {
    raw = JSON.parse(link);
  } catch {
    return state;
  }
  if (!isRecord(raw)) return state;
  const linked = parseGridState(JSON.stringify({ v: VERSION, filterRow: raw.filterRow, headerFilters: raw.headerFilters }), columns);
  const shown = new Set([...Object.keys(linked.filterRow), ...Object.keys(linked.headerFilters)]);
  return { ...state, filterRow: linked.filterRow, headerFilters: linked.headerFilters, hidden: state.hidden.filter((f) => !shown.has(f)) };
}

export function loadGridState(gridKey: string, columns: readonly GridField[], defaultSort?: SortSpec[]): PersistedGridState {
  let json: string | null = null;
  try {
    json = localStorage.getItem(gridStorageKey(gridKey));
  } catch {
    // Storage can be disabled (private mode, policies); the grid then starts from defaults.
  }
  return parseGridState(json, columns, defaultSort);
}

export function saveGridState(gridKey: string, state: PersistedGridState): void {
  try {
    localStorage.setItem(gridStorageKey(gridKey), serializeGridState(state));
  } catch {
    // Full or disabled storage only loses the remembered state.
  }
}
