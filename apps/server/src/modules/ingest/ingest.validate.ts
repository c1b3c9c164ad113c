import { agentReadingSchema, type AgentReading, type ReadingRejection } from '@pagewatch/contracts/agent-api';
import type { FieldError } from '../../lib/app-error.ts';
import { errorBody, issueFields } from '../../lib/error-body.ts';
import type { Lang } from '../../i18n/messages.ts';
import './ingest.messages.ts';

const EARLIEST = Date.UTC(2000, 0, 1);
const SKEW_MS = 24 * 3600_000;
/** Enough to fix a reading by; a reading with thousands of bad values need not list them all. */
const MAX_DETAILS = 20;

/** What zod cannot check: a date that is not one, before 2000, or in the future. */
function impossibleValues(r: AgentReading, prefix: string, now: number): FieldError[] {
  const at = Date.parse(r.reading.readAt);
  return !Number.isFinite(at) || at < EARLIEST || at > now + SKEW_MS ? [{ field: `${prefix}reading.readAt`, key: 'ingest.badReadAt' }] : [];
}

/**
 * Checks each reading of a batch on its own (issue 14): the valid ones go on, each bad one is
 * a rejection naming its id and fields, with the status a request of it alone would get.
 */
export function checkReadings(raw: unknown[], lang: Lang, now = Date.now()): { valid: AgentReading[]; rejected: ReadingRejection[] } {
  const valid: AgentReading[] = [];
  const rejected: ReadingRejection[] = [];
  raw.forEach((item, index) => {
    const prefix = `readings.${index}.`;
    const rawId = (item as { id?: unknown } | null)?.id;
    const id = typeof rawId === 'string' ? rawId.slice(0, 100) : null;
    const parsed = agentReadingSchema.safeParse(item);
    if (!parsed.success) {
      const body = errorBody(lang, 'VALIDATION', 'errors.VALIDATION', {}, issueFields(parsed.error.issues.slice(0, MAX_DETAILS), prefix));
      rejected.push({ index, id, status: 400, ...body });
      return;
    }
    const impossible = impossibleValues(parsed.data, prefix, now);
    if (impossible.length) {
      rejected.push({ index, id, status: 422, ...errorBody(lang, 'UNPROCESSABLE', 'ingest.impossibleReading', {}, impossible) });
      return;
    }
    valid.push(parsed.data);
  });
  return { valid, rejected };
}
