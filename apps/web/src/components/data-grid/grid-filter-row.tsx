import '@mantine/dates/styles.css';
import { useEffect, useRef, useState } from 'react';
import { CloseButton, Select, TextInput, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
// Month and day names of the date filter's calendar in Russian.
import 'dayjs/locale/ru';
import { useTranslation } from 'react-i18next';
import { CONTAINS_MIN_CHARS, type FilterValue } from '@pagewatch/contracts/list';
import type { Header } from '@tanstack/react-table';
import { FILTER_DELAY_MS } from './grid-page-size.ts';
import { headerFilterOptions } from './grid-header-filter.tsx';
import { SelectSpacer } from './grid-selection.tsx';
import type { GridColumn } from './grid-types.ts';
import classes from './data-grid.module.css';

type Props<Row> = {
  headers: Header<Row, unknown>[];
  columnOf: (field: string) => GridColumn<Row>;
  values: Record<string, FilterValue>;
  onChange: (field: string, value: FilterValue) => void;
  /** Leaves room for the row checkboxes of a grid with selection. */
  selectable?: boolean;
};

/** The row of filter inputs under the header: text waits for typing to stop, choices apply at once. */
export function GridFilterRow<Row>({ headers, columnOf, values, onChange, selectable }: Props<Row>) {
  return (
    <div className={classes.filterRow} role="row">
      {selectable ? <SelectSpacer /> : null}
      {headers.map((h) => {
        const col = columnOf(h.column.id);
        const size = h.getSize();
        return (
          <div key={h.id} className={classes.filterCell} style={{ flex: `${size} 0 ${size}px` }} role="gridcell">
            {col.filterable ? (
              <FilterInput column={col} value={values[col.field] ?? null} onChange={(v) => onChange(col.field, v)} />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function FilterInput<Row>({ column, value, onChange }: { column: GridColumn<Row>; value: FilterValue; onChange: (v: FilterValue) => void }) {
  const { t, i18n } = useTranslation();
  const label = t('grid.filterFor', { column: t(column.header) });
  /** What every filter input of the row has: small, the cell's width, named for its column, clearable. */
  const common = { size: 'xs', w: '100%', 'aria-label': label, clearable: true } as const;
  if (column.type === 'boolean' || column.type === 'lookup') {
    const options = headerFilterOptions(column);
    return (
      <Select
        {...common}
        placeholder={t('grid.filterAll')}
        data={options.map((o) => ({ value: String(o.value), label: t(o.label) }))}
        value={value === null ? null : String(value)}
        onChange={(v) => onChange(v === null ? null : (options.find((o) => String(o.value) === v)?.value ?? null))}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (column.type === 'date') {
    // A picked day applies at once; the value is the local day `YYYY-MM-DD`.
    return (
      <DatePickerInput
        {...common}
        placeholder={t('grid.filterPlaceholder')}
        valueFormat="DD.MM.YYYY"
        locale={i18n.language}
        firstDayOfWeek={1}
        value={value === null ? null : String(value)}
        onChange={(v) => onChange(v || null)}
        popoverProps={{ withinPortal: true }}
      />
    );
  }
  return <DelayedTextInput label={label} value={value === null ? '' : String(value)} onCommit={(v) => onChange(v || null)} searched={column.type === 'string'} />;
}

/**
 * Spec section 9: the filter row waits 1700 ms after the last key stroke before it queries,
 * so typing a word costs one request; Enter applies at once. A text column's filter
 * (`searched`) says under it when one or two characters are searched as the value's start
 * (the search policy, CONTAINS_MIN_CHARS).
 */
function DelayedTextInput({ label, value, onCommit, searched }: { label: string; value: string; onCommit: (v: string) => void; searched: boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const committed = useRef(value);
  const latest = useRef(onCommit);
  latest.current = onCommit;

  // A change from outside (reset filter, stored state) replaces what is typed.
  useEffect(() => {
    committed.current = value;
    setDraft(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (v: string) => {
    clearTimeout(timer.current);
    if (v.trim() === committed.current.trim()) return;
    committed.current = v;
    latest.current(v);
  };

  const typed = [...draft.trim()].length;
  const startsWith = searched && typed > 0 && typed < CONTAINS_MIN_CHARS;
  // The hint floats under the field as a tooltip (with its arrow), so it reads as belonging to this
  // column's filter rather than to the first row's cells it covers.
  return (
    <Tooltip
      opened={startsWith}
      label={
        <span role="status" data-testid="filter-hint">
          {t('grid.startsWithHint')}
        </span>
      }
      position="bottom-start"
      withArrow
      withinPortal={false}
      fz="xs"
    >
      <TextInput
        size="xs"
        w="100%"
        aria-label={label}
        placeholder={t('grid.filterPlaceholder')}
        value={draft}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setDraft(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(v), FILTER_DELAY_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(draft);
          if (e.key === 'Escape' && draft) {
            setDraft('');
            commit('');
          }
        }}
        rightSection={
          draft ? (
            <CloseButton
              size="xs"
              aria-label={t('grid.clearFilter')}
              onClick={() => {
                setDraft('');
                commit('');
              }}
            />
          ) : null
        }
      />
    </Tooltip>
  );
}
