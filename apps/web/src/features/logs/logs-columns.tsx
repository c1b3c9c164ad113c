import { useTranslation } from 'react-i18next';
import { LOG_LEVEL_CODES, LOG_LEVELS, type EventGroupRow, type EventLogRow } from '@pagewatch/contracts/event-logs';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn, ListDefinition } from '../../components/data-grid/grid-types.ts';
import { LogLevelBadge } from './log-level-badge.tsx';
import { formatDuration } from './log-format.ts';
import { LOGS_ENDPOINT } from './api/logs-api.ts';

/** A group's label: translated for the groups we know, else its stored name. */
export function GroupLabel({ code, name }: { code: string; name: string }) {
  const { t } = useTranslation();
  return <>{t(`logs.group.${code}`, { defaultValue: name })}</>;
}

/**
 * The logs list as the server declares it (apps/server/src/modules/event-logs/event-logs.list.ts).
 * The group column's choices come from GET /event-groups, so the list is built per group set.
 */
export function logsList(groups: readonly EventGroupRow[]): ListDefinition {
  return {
    endpoint: LOGS_ENDPOINT,
    defaultSort: [{ field: 'logDatetime', dir: 'DESC' }],
    columns: [
      { field: 'logDatetime', type: 'date', sortable: true, filterable: true },
      { field: 'eventGroupId', type: 'lookup', sortable: true, filterable: true, options: groups.map((g) => ({ value: g.id, label: `logs.group.${g.code}` })) },
      { field: 'logLevel', type: 'lookup', sortable: true, filterable: true, options: LOG_LEVEL_CODES.map((c) => ({ value: c, label: LOG_LEVELS[c].labelKey })) },
      { field: 'userLogin', type: 'string', sortable: true, filterable: true },
      { field: 'childrenCount', type: 'number', sortable: true, filterable: true },
      { field: 'logDuration', type: 'number', sortable: true, filterable: true },
      { field: 'message', type: 'string', sortable: true, filterable: true },
      { field: 'objectClass', type: 'string', sortable: true, filterable: true, hidden: true },
      { field: 'objectId', type: 'number', sortable: true, filterable: true, hidden: true },
    ],
  };
}

export function logsColumns(groups: readonly EventGroupRow[]): GridColumn<EventLogRow>[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  return columnsFromList<EventLogRow>(logsList(groups), {
    logDatetime: { header: 'logs.logDatetime', width: 170 },
    eventGroupId: {
      header: 'logs.eventGroup',
      width: 140,
      cell: (r) => <GroupLabel code={byId.get(r.eventGroupId)?.code ?? ''} name={r.eventGroupName} />,
    },
    logLevel: { header: 'logs.logLevel', width: 130, cell: (r) => <LogLevelBadge level={r.logLevel} /> },
    userLogin: { header: 'logs.user', width: 130 },
    childrenCount: { header: 'logs.childrenCount', width: 110 },
    logDuration: { header: 'logs.logDuration', width: 120, cell: (r) => formatDuration(r.logDuration) },
    message: { header: 'logs.message', width: 420 },
    objectClass: { header: 'logs.objectClass', width: 140 },
    objectId: { header: 'logs.objectId', width: 100 },
  });
}
