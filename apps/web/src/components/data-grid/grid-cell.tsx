import type { ReactNode } from 'react';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { GridColumn } from './grid-types.ts';

/** Spec section 9: dates show as dd.MM.yyyy HH:mm:ss. */
export const DATE_FORMAT = 'DD.MM.YYYY HH:mm:ss';
/** A calendar day (a `day` column) has no time. */
export const DAY_FORMAT = 'DD.MM.YYYY';

/** The default look of a cell by column type; a column's own `cell` replaces it. */
export function formatCell<Row>(col: GridColumn<Row>, value: unknown, t: TFunction): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  switch (col.type) {
    case 'boolean':
      return value ? (
        <IconCheck size={16} aria-label={t('grid.yes')} color="var(--mantine-color-green-7)" />
      ) : (
        <IconMinus size={16} aria-label={t('grid.no')} color="var(--mantine-color-dimmed)" />
      );
    case 'date': {
      const d = dayjs(value as string | number | Date);
      return d.isValid() ? d.format(col.day ? DAY_FORMAT : DATE_FORMAT) : String(value);
    }
    case 'lookup': {
      const option = col.options?.find((o) => o.value === value);
      return option ? t(option.label) : String(value);
    }
    default:
      return String(value);
  }
}
