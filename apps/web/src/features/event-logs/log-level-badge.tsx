import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LOG_LEVELS, type LogLevel } from '@pagewatch/contracts/event-logs';

/** A log level with its colour and label, both from the one definition in the contracts. */
export function LogLevelBadge({ level }: { level: LogLevel }) {
  const { t } = useTranslation();
  const def = LOG_LEVELS[level];
  if (!def) return <>{level}</>;
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" data-level={level}>
      {t(def.labelKey)}
    </Badge>
  );
}
