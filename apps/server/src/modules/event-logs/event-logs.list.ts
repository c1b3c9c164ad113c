import { sql, type SQL } from 'drizzle-orm';
import { eventLogsList } from '@pagewatch/contracts/event-logs';
import { COUNT_CAP } from '@pagewatch/contracts/list';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { eventLogs } from '../../db/schema/event-logs.ts';
import { visibleCondition } from '../../db/scope.ts';
import type { Lang } from '../../i18n/messages.ts';

/**
 * The logs grid: fields from the shared spec, SQL here. The group name and the user's login are
 * scalar subqueries, not joins: the page evaluates them for its 50 rows only, and the count
 * touches event_logs alone, so it is an index-only scan of a partial index (bench/logs.bench.ts).
 * Millions of records: counts are exact up to COUNT_CAP matches and shown as "10,000+" above.
 */
const listIn = (message: SQL) => listSql(eventLogsList, {
  countLimit: COUNT_CAP,
  from: sql`event_logs l`,
  tiebreaker: [sql`l.id`],
  visibleTo: (caller) => visibleCondition(caller, sql`l.location_id`),
  sql: {
    ...tableFields('l', eventLogs, ['logDatetime', 'eventGroupId', 'logLevel', 'device', 'serial', 'address', 'childrenCount', 'objectClass', 'objectId']),
    userLogin: sql`(SELECT u.login FROM users u WHERE u.id = l.user_id)`,
    logDuration: sql`l.duration_ms`,
    message,
  },
  extra: {
    id: { expr: sql`l.id`, type: 'number', filter: true, sort: true },
    parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true },
    eventGroupName: { expr: sql`(SELECT g.name FROM event_groups g WHERE g.id = l.event_group_id)`, type: 'string', filter: true, sort: true },
    userId: { expr: sql`l.user_id`, type: 'number', filter: true, sort: true },
    messageCode: { expr: sql`l.message_code`, type: 'string', filter: true, sort: true },
    // Renders the message in the reader's language (toRow); `message` is the text in it, as stored.
    messageParams: { expr: sql`l.message_params`, type: 'string' },
  },
});

/**
 * The list as a reader of `lang` sees it: the message is filtered and sorted as shown to them,
 * English as stored in `message`, Russian as rendered into `message_ru` when the record was
 * written (null where the record shows `message`: a plain text). Each has its trigram index
 * on the top-level records (db/schema/event-logs.ts), so both follow the same search policy.
 */
export const eventLogsListSql = listIn(sql`l.message`);
const russian = listIn(sql`COALESCE(l.message_ru, l.message)`);
export const eventLogsListIn = (lang: Lang) => (lang === 'ru' ? russian : eventLogsListSql);
