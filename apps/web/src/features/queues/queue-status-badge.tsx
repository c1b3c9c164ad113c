import { QUEUE_STATUS_DEFS, type QueueStatus } from '@pagewatch/contracts/queues';
import { CodeBadge } from '../../components/code-badge.tsx';

/** A queue's read status with its colour and label, both from the one definition in the contracts. */
export function QueueStatusBadge({ status }: { status: QueueStatus }) {
  return <CodeBadge defs={QUEUE_STATUS_DEFS} code={status} attr="status" />;
}
