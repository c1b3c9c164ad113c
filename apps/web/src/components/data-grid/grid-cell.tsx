import type { ReactNode } from 'react';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { GridColumn } from './grid-types.ts';
import { formatNumber, formatDateTime, formatDay } from '../../lib/format.ts';


const IDENTIFIERS = /(^id$|Id$|^port$|[Yy]ear$)/;

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
    case 'date':
      return col.day ? formatDay(value as string | number | Date) : formatDateTime(value as string | number | Date);
    case 'number':
      // Counts in the language's one number format; an id or a port is a name, not an amount.
      return typeof value === 'number' && !IDENTIFIERS.test(col.field) ? formatNumber(value) : String(value);
    case 'lookup': {
      const option = col.options?.find((o) => o.value === value);
      return option ? t(option.label) : String(value);
    }
    default:
      return String(value);
  }
}
