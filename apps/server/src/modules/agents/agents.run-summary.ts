import type { RangeResultReport } from '@pagewatch/contracts/agent-api';
import { part } from '../event-logs/index.ts';

/**
 * A range's summary for the event log. Agents that count refusals get the text with them and the
 * first refused devices with their reason (translated per reader); older agents keep the old text.
 */
export function summaryPart(scanned: number, found: number, s: NonNullable<RangeResultReport['summary']>) {
  const summary = countsPart(scanned, found, s);
  // Addresses a busy agent could not probe in time are neither found nor empty (issue 53).
  return s.unprobed ? part('rangeNotProbed', { summary, unprobed: s.unprobed }) : summary;
}

function countsPart(scanned: number, found: number, s: NonNullable<RangeResultReport['summary']>) {
  const counts = { scanned, found, answered: s.answered, slow: s.slow, timedOut: s.timedOut, unreachable: s.unreachable };
  if (s.refused === undefined) return part('rangeScannedSummary', counts);
  const refusals = (s.refusals ?? []).map((r) => part(`refusal.${r.reason}`, { ip: r.ip }));
  const more = s.refused - refusals.length;
  const why = refusals.length === 0 ? '' : part(more > 0 ? 'refusalListMore' : 'refusalList', { list: refusals, more });
  return part('rangeScannedSummaryRefused', { ...counts, refused: s.refused, why });
}
