import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/**
 * The logs grid: one declaration for the API's filters and sorts. Top-level records only is the
 * filter `["parentId", "=", null]`; a run's children are `["parentId", "=", <id>]`.
 */
export const eventLogsList: ListDef = {
  from: sql`event_logs l JOIN event_groups g ON g.id = l.event_group_id LEFT JOIN users u ON u.id = l.user_id`,
  tiebreaker: sql`l.id`,
  defaultSort: [{ field: 'logDatetime', dir: 'DESC' }],
  columns: {
    id: { expr: sql`l.id`, type: 'number', filter: true, sort: true },
    parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true },
    logDatetime: { expr: sql`l.log_datetime`, type: 'date', filter: true, sort: true },
    eventGroupId: { expr: sql`l.event_group_id`, type: 'number', filter: true, sort: true },
    eventGroupName: { expr: sql`g.name`, type: 'string', filter: true, sort: true },
    logLevel: { expr: sql`l.log_level`, type: 'string', filter: true, sort: true },
    userId: { expr: sql`l.user_id`, type: 'number', filter: true, sort: true },
    userLogin: { expr: sql`u.login`, type: 'string', filter: true, sort: true },
    childrenCount: { expr: sql`l.children_count`, type: 'number', filter: true, sort: true },
    logDuration: { expr: sql`l.duration_ms`, type: 'number', filter: true, sort: true },
    message: { expr: sql`l.message`, type: 'string', filter: true, sort: true },
    messageCode: { expr: sql`l.message_code`, type: 'string', filter: true, sort: true },
    objectClass: { expr: sql`l.object_class`, type: 'string', filter: true, sort: true },
    objectId: { expr: sql`l.object_id`, type: 'number', filter: true, sort: true },
  },
};
