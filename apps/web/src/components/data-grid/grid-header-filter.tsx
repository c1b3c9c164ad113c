import { useState } from 'react';
import { ActionIcon, Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconFilter, IconFilterFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { FilterValue } from '@pagewatch/contracts/list';
import type { GridColumn, LookupOption } from './grid-types.ts';

/** The values a header filter offers: yes and no for booleans, the options of a lookup. */
export function headerFilterOptions(col: Pick<GridColumn<unknown>, 'type' | 'options' | 'ranges'>): Array<{ value: FilterValue; label: string }> {
  if (col.ranges) return col.ranges.map((r) => ({ value: r.value, label: r.label }));
  if (col.type === 'boolean') {
    return [
      { value: true, label: 'grid.yes' },
      { value: false, label: 'grid.no' },
    ];
  }
  return (col.options ?? []).map((o: LookupOption) => ({ value: o.value, label: o.label }));
}

export function hasHeaderFilter(col: Pick<GridColumn<unknown>, 'type' | 'filterable' | 'headerFilter' | 'options' | 'ranges'>): boolean {
  if (!col.filterable) return false;
  if (col.ranges?.length) return true;
  return col.headerFilter ?? (col.type === 'boolean' || (col.type === 'lookup' && !!col.options?.length));
}

type Props = {
  column: GridColumn<never>;
  selected: FilterValue[];
  onChange: (values: FilterValue[]) => void;
};

/**
 * A popover of checkboxes in the header; the ticked values become one `anyof` condition. The
 * popover is made on the first click: until then the header holds its button alone (a grid's
 * every boolean and lookup column would otherwise set up a popover on each render).
 */
export function GridHeaderFilter({ column, selected, onChange }: Props) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  const options = headerFilterOptions(column);
  const active = selected.length > 0;
  const toggle = (value: FilterValue, on: boolean) =>
    onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  const button = (onClick?: () => void) => (
    <ActionIcon
      size="sm"
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      aria-label={`${t('grid.headerFilter')}: ${t(column.header)}`}
      aria-pressed={active}
      aria-haspopup="dialog"
      aria-expanded={opened}
      data-no-row-open
      onClick={onClick}
    >
      {active ? <IconFilterFilled size={14} /> : <IconFilter size={14} />}
    </ActionIcon>
  );
  if (!used) return button(() => (setUsed(true), setOpened(true)));
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus opened={opened} onChange={setOpened}>
      {/* A controlled popover leaves the target's clicks to it. */}
      <Popover.Target>{button(() => setOpened((o) => !o))}</Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} miw={140}>
          {options.map((o) => (
            <Checkbox
              key={String(o.value)}
              label={t(o.label)}
              checked={selected.includes(o.value)}
              onChange={(e) => toggle(o.value, e.currentTarget.checked)}
            />
          ))}
          <Button size="compact-xs" variant="subtle" onClick={() => onChange([])} disabled={!active}>
            {t('grid.headerFilterClear')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
