import { agentReadingSchema, type AgentReading, type ReadingRejection, type ReadingRepair } from '@pagewatch/contracts/agent-api';
import { READING_LIST_MAX } from '@pagewatch/contracts/reading';
import { cutText } from '@pagewatch/contracts/fields';
import type { FieldError } from '../../lib/app-error.ts';
import { errorBody, issueFields } from '../../lib/error-body.ts';
import type { Lang } from '../../i18n/messages.ts';
import { repairReadingText } from './repair-text.ts';
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
 * Broken text is repaired first (issue 39), noted in the reading's `trimmed` (so the device
 * shows it) and named in `repaired` (so the agent logs it).
 */
export function checkReadings(raw: unknown[], lang: Lang, now = Date.now()): { valid: AgentReading[]; rejected: ReadingRejection[]; repaired: ReadingRepair[] } {
  const valid: AgentReading[] = [];
  const rejected: ReadingRejection[] = [];
  const repaired: ReadingRepair[] = [];
  raw.forEach((item, index) => {
    const prefix = `readings.${index}.`;
    const rawId = (item as { id?: unknown } | null)?.id;
    const id = typeof rawId === 'string' ? cutText(rawId, 100) : null;
    const fields = repairReadingText(item);
    if (fields.length) repaired.push({ index, id, fields: fields.slice(0, MAX_DETAILS) });
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
    if (fields.length) {
      const notes = fields.map((field) => ({ field, action: 'repaired' as const }));
      parsed.data.reading.trimmed = [...(parsed.data.reading.trimmed ?? []), ...notes].slice(0, READING_LIST_MAX.trimmed);
    }
    valid.push(parsed.data);
  });
  return { valid, rejected, repaired };
}
