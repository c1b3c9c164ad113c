import { useTranslation } from 'react-i18next';
import { eventLogsList, LOG_LEVEL_CODES, LOG_LEVELS, type EventGroupRow, type EventLogRow } from '@pagewatch/contracts/event-logs';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { LogLevelBadge } from './log-level-badge.tsx';
import { formatDuration } from './log-format.ts';

/** A group's label: translated for the groups we know, else its stored name. */
export function GroupLabel({ code, name }: { code: string; name: string }) {
  const { t } = useTranslation();
  return <>{t(`logs.group.${code}`, { defaultValue: name })}</>;
}

const LEVEL_OPTIONS = LOG_LEVEL_CODES.map((c) => ({ value: c, label: LOG_LEVELS[c].labelKey }));

/** The logs grid's looks; fields, filters and sorts come from the shared list spec. Groups and levels show as lookups. */
export function logsColumns(groups: readonly EventGroupRow[]): GridColumn<EventLogRow>[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  return columnsFromList(eventLogsList, {
    logDatetime: { header: 'logs.logDatetime', width: 170 },
    eventGroupId: {
      header: 'logs.eventGroup',
      type: 'lookup',
      options: groups.map((g) => ({ value: g.id, label: `logs.group.${g.code}` })),
      width: 140,
      cell: (r) => <GroupLabel code={byId.get(r.eventGroupId)?.code ?? ''} name={r.eventGroupName} />,
    },
    // Wide enough for the longest level badge, Russian "Предупреждение", and its header.
    logLevel: { header: 'logs.logLevel', width: 165, type: 'lookup', options: LEVEL_OPTIONS, cell: (r) => <LogLevelBadge level={r.logLevel} /> },
    device: { header: 'logs.device', width: 160 },
    serial: { header: 'logs.serial', width: 140 },
    address: { header: 'logs.address', width: 130 },
    userLogin: { header: 'logs.user', width: 130 },
    childrenCount: { header: 'logs.childrenCount', width: 110 },
    logDuration: { header: 'logs.logDuration', width: 150, cell: (r) => formatDuration(r.logDuration) },
    // With the columns before it, the device beside it fits at 1440 px (issue 56).
    message: { header: 'logs.message', width: 380 },
    objectClass: { header: 'logs.objectClass', width: 140 },
    objectId: { header: 'logs.objectId', width: 100 },
  });
}
