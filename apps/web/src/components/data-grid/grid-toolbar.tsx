import type { ReactNode } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors.ts';
import { GridColumnChooser } from './grid-column-chooser.tsx';
import type { GridColumn } from './grid-types.ts';
import type { GridStateApi } from './use-grid-state.ts';
import classes from './data-grid.module.css';

/** Above the grid: the screen's own buttons (`children`), the filters' reset and the column chooser. */
export function GridToolbar<Row>({ grid, columns, filterPanel, children }: { grid: GridStateApi; columns: readonly GridColumn<Row>[]; filterPanel: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={classes.toolbar}>
      <Group gap="xs" style={{ flex: 1 }}>
        {children}
      </Group>
      {filterPanel ? (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFilterOff size={16} />}
          disabled={!grid.filtered}
          onClick={grid.resetFilters}
        >
          {t('grid.resetFilter')}
        </Button>
      ) : null}
      <GridColumnChooser
        columns={columns}
        order={grid.state.columnOrder}
        hidden={grid.state.hidden}
        onOrder={grid.setColumnOrder}
        onHidden={grid.setHidden}
        onReset={grid.resetColumns}
      />
    </div>
  );
}

/** The grid's rows could not be read: the error (the same text as the toast of spec section 8) and a retry. */
export function GridLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={classes.errorState} role="alert">
      <Alert color="red" variant="light" title={t('grid.loadFailed')}>
        {/* The same text as the error toast of spec section 8 (server message, or "cannot connect"). */}
        <Text size="sm">{errorMessage(error)}</Text>
        <Group mt="xs">
          <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
            {t('grid.retry')}
          </Button>
        </Group>
      </Alert>
    </div>
  );
}
