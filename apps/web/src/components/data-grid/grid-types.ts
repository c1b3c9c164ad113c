import type { ReactNode } from 'react';
import type { FilterExpression, FilterValue, SortSpec } from '@pagewatch/contracts/list';

/** Column types the grid knows how to show and filter. `lookup` has a fixed set of options. */
export type GridColumnType = 'string' | 'number' | 'date' | 'boolean' | 'lookup';

/** One option of a lookup column: the value sent to the server and the i18n key shown. */
export type LookupOption = { value: string | number; label: string };

/**
 * A column the grid knows: a list's field (contracts `List`, via `columnsFromList`) or a column
 * of local data; which fields filter and sort, and what shows by default.
 */
export type GridField = {
  field: string;
  type: GridColumnType;
  sortable?: boolean;
  filterable?: boolean;
  /** Not visible until the user shows it in the column chooser. */
  hidden?: boolean;
  /** A date column holding a calendar day (YYYY-MM-DD): shown without a time. */
  day?: boolean;
  options?: readonly LookupOption[];
  /** Header-filter choices that are ranges, not values ("runs out within 7 days"): each its condition. */
  ranges?: readonly HeaderRange[];
};

/** A header-filter choice standing for a condition on the column; ticked ones are joined with `or`. */
export type HeaderRange = { value: string; label: string; condition: FilterExpression };

/** What the grid adds to a list column: how it looks. */
export type GridColumn<Row> = GridField & {
  /** i18n key of the header text. */
  header: string;
  /** Initial width in px (the user may resize; the width is then remembered). */
  width?: number;
  resizable?: boolean;
  /** Offer the checkbox popover in the header (lookup and boolean columns have it by default). */
  headerFilter?: boolean;
  /** Value of the cell; defaults to `row[field]`. */
  value?: (row: Row) => unknown;
  /** Custom cell renderer; defaults to the formatted value. */
  cell?: (row: Row) => ReactNode;
};

/** The part of a grid's state that survives a reload (not the page number, by spec). */
export type PersistedGridState = {
  columnOrder: string[];
  hidden: string[];
  widths: Record<string, number>;
  sort: SortSpec[];
  /** Filter-row values by field (string for text inputs, FilterValue for selects). */
  filterRow: Record<string, FilterValue>;
  /** Header-filter checkbox selections by field (an `anyof`). */
  headerFilters: Record<string, FilterValue[]>;
  pageSize: PageSizeChoice;
};

/** A fixed page size or "fit to height". */
export type PageSizeChoice = number | 'fit';

export type RowOpenOptions = { newTab: boolean };

export type { FilterExpression, FilterValue, SortSpec };
