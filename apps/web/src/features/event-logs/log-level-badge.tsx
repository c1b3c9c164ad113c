import { LOG_LEVELS, type LogLevel } from '@pagewatch/contracts/event-logs';
import { CodeBadge } from '../../components/code-badge.tsx';

/** A log level with its colour and label, both from the one definition in the contracts. */
export function LogLevelBadge({ level }: { level: LogLevel }) {
  return <CodeBadge defs={LOG_LEVELS} code={level} attr="level" />;
}
