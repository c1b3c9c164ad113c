import type { QueueType } from '@pagewatch/contracts/queues';
import { readIppQueue } from './ipp-reader.ts';
import type { QueueReader } from './queue-read.ts';

/**
 * One reader per queue type (contracts' QUEUE_TYPE_DEFS): a Windows print server type adds
 * its reader here, on an agent that runs on Windows.
 */
export const QUEUE_READERS: Record<QueueType, QueueReader> = {
  IPP: readIppQueue,
};
