import type { List } from '@pagewatch/contracts/list';
import type { GridColumn, GridField, HeaderRange, LookupOption } from './grid-types.ts';

/**
 * How a screen shows a listed field; it may present a field as a lookup with options. The
 * header is the list's title of the field (`ListField.title`) unless the look names one.
 */
export type ColumnLook<Row> = Omit<GridColumn<Row>, keyof GridField | 'header'> & { header?: string; type?: 'lookup'; options?: readonly LookupOption[]; ranges?: readonly HeaderRange[] };

/**
 * Grid columns from a list definition (house-style rule 4): the definition says which fields
 * exist, sort, filter and show by default, the screen adds headers, widths and renderers.
 * The order of the definition is the default column order.
 */
export function columnsFromList<F extends string, Row>(list: List<F, Row>, looks: { [K in NoInfer<F>]?: ColumnLook<NoInfer<Row>> }): GridColumn<Row>[] {
  return list.columns.map((c): GridColumn<Row> => {
    const { field, type, sortable, filterable, hidden, day } = c;
    return { field, type, sortable, filterable, hidden, ...(day ? { day } : {}), header: c.title ?? c.field, ...looks[c.field] };
  });
}

/** Moves `field` to where `before` stands (or to the end); used by drag and by the arrow buttons. */
export function moveField(order: readonly string[], field: string, before: string | null): string[] {
  const rest = order.filter((f) => f !== field);
  const at = before === null ? rest.length : rest.indexOf(before);
  rest.splice(at < 0 ? rest.length : at, 0, field);
  return rest;
}
