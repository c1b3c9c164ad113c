import { sql } from 'drizzle-orm';
import { queueJobsList, queuesList } from '@pagewatch/contracts/queues';
import { COUNT_CAP } from '@pagewatch/contracts/list';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { queueJobs, queues } from '../../db/schema/queues.ts';

/** The queues grid: a queue's location is its agent's, and the caller's locations restrict it. */
export const queuesListSql = listSql(queuesList, {
  scope: sql`a.location_id`,
  from: sql`queues q JOIN agents a ON a.id = q.agent_id JOIN locations l ON l.id = a.location_id LEFT JOIN devices d ON d.id = q.device_id`,
  tiebreaker: [sql`q.id`],
  sql: {
    ...tableFields('q', queues, ['id', 'type', 'host', 'port', 'url', 'status', 'statusMessage', 'lastReadAt', 'printerAddress', 'agentId', 'deviceId']),
    agentName: sql`a.name`,
    locationId: sql`a.location_id`,
    locationName: sql`l.name`,
    deviceSerialNumber: sql`d.serial_number`,
    jobCount: sql`(SELECT count(*)::int FROM queue_jobs j WHERE j.queue_id = q.id)`,
  },
});

/** The jobs grid: the jobs of the caller's queues, filtered by queueId in the queue's tab. */
export const queueJobsListSql = listSql(queueJobsList, {
  scope: sql`a.location_id`,
  // A queue keeps years of jobs: the total is exact up to the cap and "10,000+" above.
  countLimit: COUNT_CAP,
  keyLookup: ['bigint'],
  from: sql`queue_jobs j JOIN queues q ON q.id = j.queue_id JOIN agents a ON a.id = q.agent_id LEFT JOIN devices d ON d.id = j.device_id`,
  tiebreaker: [sql`j.id`],
  sql: {
    ...tableFields('j', queueJobs, [
      'id', 'queueId', 'externalJobId', 'deviceId', 'name', 'createdAt', 'completedAt', 'username', 'clientMachine',
      'printedPageCount', 'colorPageCount', 'sizeKb', 'paperSize', 'duplex',
    ]),
    deviceSerialNumber: sql`d.serial_number`,
  },
});
