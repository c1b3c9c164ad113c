import { QUEUE_STATUSES, QUEUE_STATUS_DEFS, QUEUE_TYPES, QUEUE_TYPE_DEFS, queueJobsList, queuesList } from '@pagewatch/contracts/queues';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { QueueStatusBadge } from './queue-status-badge.tsx';

const TYPE_OPTIONS = QUEUE_TYPES.map((t) => ({ value: t, label: QUEUE_TYPE_DEFS[t].labelKey }));
const STATUS_OPTIONS = QUEUE_STATUSES.map((s) => ({ value: s, label: QUEUE_STATUS_DEFS[s].labelKey }));

/** The queues grid's looks. */
export const queuesColumns = columnsFromList(queuesList, {
  type: { header: 'queues.typeLabel', width: 150, type: 'lookup', options: TYPE_OPTIONS },
  host: { header: 'queues.host', width: 180 },
  port: { header: 'queues.port', width: 80 },
  url: { header: 'queues.url', width: 180 },
  agentName: { header: 'queues.agent', width: 170 },
  locationName: { header: 'queues.location', width: 160 },
  deviceSerialNumber: { header: 'queues.device', width: 150 },
  status: { header: 'queues.statusLabel', width: 120, type: 'lookup', options: STATUS_OPTIONS, cell: (r) => <QueueStatusBadge status={r.status} /> },
  lastReadAt: { header: 'queues.lastReadAt', width: 170 },
  jobCount: { header: 'queues.jobCount', width: 100 },
  statusMessage: { header: 'queues.statusMessage', width: 260 },
  printerAddress: { header: 'queues.printerAddress', width: 150 },
  id: { header: 'queues.id', width: 80 },
  agentId: { header: 'queues.agentId', width: 90 },
  locationId: { header: 'queues.locationId', width: 90 },
  deviceId: { header: 'queues.deviceId', width: 90 },
});

/** The jobs grid of a queue (spec section 3, Queue job: every field). */
export const queueJobsColumns = columnsFromList(queueJobsList, {
  externalJobId: { header: 'queues.jobs.externalJobId', width: 100 },
  deviceSerialNumber: { header: 'queues.jobs.device', width: 150 },
  name: { header: 'queues.jobs.name', width: 220 },
  createdAt: { header: 'queues.jobs.createdAt', width: 170 },
  completedAt: { header: 'queues.jobs.completedAt', width: 170 },
  username: { header: 'queues.jobs.username', width: 150 },
  clientMachine: { header: 'queues.jobs.clientMachine', width: 150 },
  printedPageCount: { header: 'queues.jobs.printedPageCount', width: 100 },
  colorPageCount: { header: 'queues.jobs.colorPageCount', width: 110 },
  sizeKb: { header: 'queues.jobs.sizeKb', width: 100 },
  paperSize: { header: 'queues.jobs.paperSize', width: 150 },
  duplex: { header: 'queues.jobs.duplex', width: 90 },
  id: { header: 'queues.id', width: 80 },
  queueId: { header: 'queues.jobs.queueId', width: 90 },
  deviceId: { header: 'queues.deviceId', width: 90 },
});
