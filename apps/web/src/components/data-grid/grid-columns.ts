import type { GridColumn, ListColumn, ListDefinition } from './grid-types.ts';

/** How a screen dresses a list column: at least its header key. */
export type ColumnLook<Row> = Omit<GridColumn<Row>, keyof ListColumn>;

/**
 * Grid columns from a list definition (house-style rule 4): the definition says which fields
 * exist, sort, filter and show by default, the screen adds headers, widths and renderers.
 * The order of the definition is the default column order.
 */
export function columnsFromList<Row>(list: Pick<ListDefinition, 'columns'>, looks: Record<string, ColumnLook<Row>>): GridColumn<Row>[] {
  return list.columns.map((c) => ({ ...c, ...(looks[c.field] ?? { header: c.field }) }));
}
