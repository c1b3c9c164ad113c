import { useMemo, useState } from 'react';
import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EventLogRow } from '@pagewatch/contracts/event-logs';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { LOGS_ENDPOINT, useEventGroups } from './api/logs-api.ts';
import { logsColumns } from './logs-columns.tsx';

const TOP_LEVEL_KEY = 'pagewatch.logs.topLevel';
const TOP_LEVEL: FilterExpression = ['parentId', '=', null];
const rowId = (r: EventLogRow) => r.id;
const rowHref = (r: EventLogRow) => `/log/${r.id}`;

/** `/logs` (spec section 2): the event log, top-level records or all of them. */
export function LogsPage() {
  const { t } = useTranslation();
  const canFilter = useHasGrant('BTN_CLEAR_FILTER.EXECUTE');
  const groups = useEventGroups();
  const [topLevel, setTopLevel] = useState(() => localStorage.getItem(TOP_LEVEL_KEY) !== 'false');
  // The group choices only dress the group column (same fields): the grid need not wait for them.
  const groupRows = groups.data?.pageRows;
  const columns = useMemo(() => logsColumns(groupRows ?? []), [groupRows]);

  const toggle = (on: boolean) => {
    setTopLevel(on);
    localStorage.setItem(TOP_LEVEL_KEY, String(on));
  };

  return (
    <AppPage title={t('nav.logs')}>
      <DataGrid<EventLogRow>
        gridKey="gridLogs"
        endpoint={LOGS_ENDPOINT}
        columns={columns}
        defaultSort={[{ field: 'logDatetime', dir: 'DESC' }]}
        baseFilter={topLevel ? TOP_LEVEL : null}
        filterPanel={canFilter}
        getRowId={rowId}
        rowHref={rowHref}
        toolbar={
          <Switch
            size="sm"
            checked={topLevel}
            onChange={(e) => toggle(e.currentTarget.checked)}
            label={t('logs.topLevelOnly')}
            data-testid="logs-top-level"
          />
        }
      />
    </AppPage>
  );
}
