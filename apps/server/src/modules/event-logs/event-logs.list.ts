import { sql } from 'drizzle-orm';
import { eventLogsListSpec } from '@pagewatch/contracts/event-logs';
import { defineList } from '../../lib/list-query.ts';

/**
 * The logs grid: fields from the shared spec, SQL here. Both joins are LEFT so that PostgreSQL
 * drops them from the count query (the group is never null; the count needs neither table).
 */
export const eventLogsList = defineList(eventLogsListSpec, {
  from: sql`event_logs l LEFT JOIN event_groups g ON g.id = l.event_group_id LEFT JOIN users u ON u.id = l.user_id`,
  tiebreaker: sql`l.id`,
  sql: {
    logDatetime: sql`l.log_datetime`,
    eventGroupId: sql`l.event_group_id`,
    logLevel: sql`l.log_level`,
    userLogin: sql`u.login`,
    childrenCount: sql`l.children_count`,
    logDuration: sql`l.duration_ms`,
    message: sql`l.message`,
    objectClass: sql`l.object_class`,
    objectId: sql`l.object_id`,
  },
  extra: {
    id: { expr: sql`l.id`, type: 'number', filter: true, sort: true },
    parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true },
    eventGroupName: { expr: sql`g.name`, type: 'string', filter: true, sort: true },
    userId: { expr: sql`l.user_id`, type: 'number', filter: true, sort: true },
    messageCode: { expr: sql`l.message_code`, type: 'string', filter: true, sort: true },
  },
});
