/** Helpers for tree grids; pure so they can be unit tested and shared by local and remote data. */

export type RowId = string | number;

/** Turns a flat list with parent ids into roots plus a child lookup (rows whose parent is absent become roots). */
export function treeFromParentIds<Row>(
  rows: readonly Row[],
  getId: (row: Row) => RowId,
  getParentId: (row: Row) => RowId | null | undefined,
): { roots: Row[]; getSubRows: (row: Row) => Row[] | undefined } {
  const ids = new Set(rows.map(getId));
  const children = new Map<RowId, Row[]>();
  const roots: Row[] = [];
  for (const row of rows) {
    const parent = getParentId(row);
    if (parent === null || parent === undefined || !ids.has(parent) || parent === getId(row)) {
      roots.push(row);
      continue;
    }
    const list = children.get(parent);
    if (list) list.push(row);
    else children.set(parent, [row]);
  }
  return { roots, getSubRows: (row) => children.get(getId(row)) };
}

/**
 * How many rows a tree holds at every level (each row once, even in a malformed tree): the
 * number a user counts in a fully opened tree grid, and what its footer says.
 */
export function countTreeRows<Row>(roots: readonly Row[], getSubRows: ((row: Row) => readonly Row[] | undefined) | undefined): number {
  const seen = new Set<Row>();
  const stack = [...roots];
  while (stack.length) {
    const row = stack.pop()!;
    if (seen.has(row)) continue;
    seen.add(row);
    stack.push(...(getSubRows?.(row) ?? []));
  }
  return seen.size;
}

/** True when `candidate` is `ancestor` itself or below it: a row must not be dropped into its own subtree. */
export function isSelfOrDescendant<Row>(
  ancestor: Row,
  candidate: Row,
  getId: (row: Row) => RowId,
  getSubRows: ((row: Row) => readonly Row[] | undefined) | undefined,
): boolean {
  const target = getId(candidate);
  const stack: Row[] = [ancestor];
  const seen = new Set<RowId>();
  while (stack.length) {
    const row = stack.pop()!;
    const id = getId(row);
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(getSubRows?.(row) ?? []));
  }
  return false;
}

/**
 * Filters and orders a tree for local data: a row stays when it matches or when any row below
 * it does (so a match is always reachable), and every level is ordered on its own.
 */
export function shapeTree<Row>(
  roots: readonly Row[],
  getSubRows: ((row: Row) => readonly Row[] | undefined) | undefined,
  keep: (row: Row) => boolean,
  order: (rows: readonly Row[]) => Row[],
): { roots: Row[]; getSubRows: (row: Row) => Row[] | undefined } {
  const kept = new Map<Row, Row[]>();
  const visit = (rows: readonly Row[]): Row[] => {
    const out: Row[] = [];
    for (const row of rows) {
      const below = visit(getSubRows?.(row) ?? []);
      if (below.length || keep(row)) {
        kept.set(row, order(below));
        out.push(row);
      }
    }
    return out;
  };
  const shapedRoots = order(visit(roots));
  return {
    roots: shapedRoots,
    getSubRows: (row) => {
      const c = kept.get(row);
      return c && c.length ? c : undefined;
    },
  };
}
