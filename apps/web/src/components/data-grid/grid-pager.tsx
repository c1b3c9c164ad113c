import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@pagewatch/contracts/list';
import type { PageSizeChoice } from './grid-types.ts';
import classes from './data-grid.module.css';
import { formatNumber } from '../../lib/format.ts';

const CONTROL_LABELS = {
  first: 'grid.firstPage',
  previous: 'grid.previousPage',
  next: 'grid.nextPage',
  last: 'grid.lastPage',
} as const;

type Props = {
  pageIndex: number;
  pageSize: number;
  choice: PageSizeChoice;
  totalRows: number;
  /** More rows match than `totalRows` counts (a big list's count cap): shown as "10,000+". */
  totalCapped?: boolean;
  /** Local grids without paging show only the total. */
  paged: boolean;
  onPage: (pageIndex: number) => void;
  onPageSize: (choice: PageSizeChoice) => void;
};

export function GridPager({ pageIndex, pageSize, choice, totalRows, totalCapped, paged, onPage, onPageSize }: Props) {
  const { t } = useTranslation();
  const total = totalCapped ? t('grid.totalCapped', { total: formatNumber(totalRows) }) : totalRows;
  const pages = Math.max(1, Math.ceil(totalRows / pageSize));
  const from = totalRows === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min(totalRows, (pageIndex + 1) * pageSize);
  return (
    <div className={classes.pager} data-testid="grid-pager">
      <Text size="sm" c="dimmed" data-testid="grid-total">
        {paged ? t('grid.rowsRange', { from, to, total }) : t('grid.totalRows', { total })}
      </Text>
      {paged ? (
        <>
          <Pagination
            size="sm"
            total={pages}
            value={pageIndex + 1}
            onChange={(p) => onPage(p - 1)}
            siblings={1}
            boundaries={1}
            getControlProps={(control) => ({ 'aria-label': t(CONTROL_LABELS[control]) })}
          />
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="xs">
              {t('grid.pageSize')}
            </Text>
            <Select
              size="xs"
              w={130}
              aria-label={t('grid.pageSize')}
              allowDeselect={false}
              data={[
                ...PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })),
                { value: 'fit', label: t('grid.fitToHeight') },
              ]}
              value={String(choice)}
              onChange={(v) => v && onPageSize(v === 'fit' ? 'fit' : Number(v))}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        </>
      ) : null}
    </div>
  );
}
