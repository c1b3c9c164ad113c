import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QUEUE_STATUS_DEFS, type QueueStatus } from '@pagewatch/contracts/queues';

/** A queue's read status with its colour and label, both from the one definition in the contracts. */
export function QueueStatusBadge({ status }: { status: QueueStatus }) {
  const { t } = useTranslation();
  const def = QUEUE_STATUS_DEFS[status];
  if (!def) return <>{status}</>;
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" data-status={status}>
      {t(def.labelKey)}
    </Badge>
  );
}
