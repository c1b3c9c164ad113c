import { useMemo, useState } from 'react';
import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { eventLogsList } from '@pagewatch/contracts/event-logs';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { useEventGroups } from './api/logs-api.ts';
import { logsColumns } from './logs-columns.tsx';

const TOP_LEVEL_KEY = 'pagewatch.logs.topLevel';
const TOP_LEVEL: FilterExpression = ['parentId', '=', null];

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
    <ListScreen
      section="logs"
      list={eventLogsList}
      columns={columns}
      baseFilter={topLevel ? TOP_LEVEL : null}
      filterPanel={canFilter}
      actions={<Switch size="sm" checked={topLevel} onChange={(e) => toggle(e.currentTarget.checked)} label={t('logs.topLevelOnly')} data-testid="logs-top-level" />}
    />
  );
}
