/// <reference path="./ipp.d.ts" />
import ipp from 'ipp';
import type { AgentQueue, AgentQueueJob } from '@pagewatch/contracts/agent-queues';
import type { QueueRead, QueueReadOptions } from './queue-read.ts';

/** The job attributes asked for (IPP Get-Jobs, RFC 8011 and PWG 5100.x). */
const JOB_ATTRIBUTES = [
  'job-id', 'job-name', 'job-originating-user-name', 'job-originating-host-name', 'time-at-creation', 'time-at-completed',
  'job-impressions-completed', 'job-impressions-completed-col', 'print-color-mode', 'job-media-sheets-completed', 'job-k-octets',
  'media', 'sides', 'job-state',
];

/**
 * The members of job-impressions-completed-col (PWG 5100.7; the IANA IPP registry) that are
 * colour: each kind of impression is counted one-sided and two-sided apart. The members do not
 * overlap (a duplex job's impressions are in the `-two-sided` members only, and
 * job-impressions is the sum of all eight, as CUPS's IPP Everywhere tools write them), so
 * adding them up counts no page twice.
 */
const COLOUR_IMPRESSIONS = ['full-color', 'full-color-two-sided', 'highlight-color', 'highlight-color-two-sided'];
const ALL_IMPRESSIONS = [...COLOUR_IMPRESSIONS, 'monochrome', 'monochrome-two-sided', 'blank', 'blank-two-sided'];
/** print-color-mode keywords (PWG 5100.13) that print no colour at all. */
const MONOCHROME_MODES = new Set(['monochrome', 'process-monochrome', 'bi-level', 'process-bi-level']);

type IppResponse = { statusCode?: string; [group: string]: unknown };
type Attrs = Record<string, unknown>;

/** ipp://host:port/path as IPP names it, and the http:// address it is reached at. */
function addresses(q: AgentQueue) {
  const path = q.url ?? '/';
  return { printerUri: `ipp://${q.host}:${q.port}${path}`, http: `http://${q.host}:${q.port}${path}` };
}

/** One IPP operation over HTTP: Basic credentials or a bearer token when the queue has them. */
async function call(q: AgentQueue, operation: string, attributes: Attrs, opts: QueueReadOptions): Promise<IppResponse> {
  const { printerUri, http } = addresses(q);
  const body = ipp.serialize({
    version: '2.0', operation, id: 1,
    'operation-attributes-tag': {
      'attributes-charset': 'utf-8', 'attributes-natural-language': 'en-us', 'printer-uri': printerUri,
      'requesting-user-name': q.username ?? 'pagewatch', ...attributes,
    },
  });
  const headers: Record<string, string> = { 'content-type': 'application/ipp' };
  if (q.token) headers.authorization = `Bearer ${q.token}`;
  else if (q.username && q.password) headers.authorization = `Basic ${Buffer.from(`${q.username}:${q.password}`).toString('base64')}`;
  const signal = AbortSignal.any([AbortSignal.timeout(opts.timeoutMs ?? 30_000), ...(opts.signal ? [opts.signal] : [])]);
  let res: Response;
  try {
    res = await fetch(http, { method: 'POST', headers, body: new Uint8Array(body), signal });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(`the print server ${q.host}:${q.port} cannot be reached (${cause})`);
  }
  if (res.status === 401 || res.status === 403) throw new Error(`the print server ${q.host}:${q.port} refused the credentials (HTTP ${res.status})`);
  if (res.status === 404) throw new Error(`the print server ${q.host}:${q.port} has no printer at ${q.url ?? '/'}`);
  if (!res.ok) throw new Error(`the print server ${q.host}:${q.port} answered HTTP ${res.status}`);
  let parsed: IppResponse;
  try {
    parsed = ipp.parse(Buffer.from(await res.arrayBuffer())) as IppResponse;
  } catch (error) {
    throw new Error(`the print server ${q.host}:${q.port} answered with something that is not IPP (${(error as Error).message})`);
  }
  const status = parsed.statusCode ?? 'unknown';
  if (status === 'client-error-not-found') throw new Error(`the print server ${q.host}:${q.port} has no printer at ${q.url ?? '/'}`);
  if (status === 'client-error-not-authenticated' || status === 'client-error-not-authorized' || status === 'client-error-forbidden') {
    throw new Error(`the print server ${q.host}:${q.port} refused the credentials (${status})`);
  }
  if (!status.startsWith('successful')) throw new Error(`the print server ${q.host}:${q.port} answered ${status}`);
  return parsed;
}

/** A group the parser gives as one object for one entry and as an array for more. */
const entries = (group: unknown): Attrs[] => (Array.isArray(group) ? group : group ? [group] : []) as Attrs[];

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null);

/** IPP times: seconds since the epoch (time-at-*) or a date (date-time-at-*). */
function when(seconds: unknown): string | null {
  const s = num(seconds);
  if (s !== null && s > 0) return new Date(s * 1000).toISOString();
  if (seconds instanceof Date && !Number.isNaN(seconds.getTime())) return seconds.toISOString();
  return null;
}

/** Text fitted to the contract's limits (security.md, invariant 8): one line, no controls. */
export function fit(v: string | null, max: number): string | null {
  if (v === null) return null;
  // eslint-disable-next-line no-control-regex
  return [...v.replace(/[\u0000-\u001f\u007f]/g, ' ')].slice(0, max).join('');
}

/** The sum of these members of job-impressions-completed-col, or null when the server tells none of them. */
function impressions(a: Attrs, members: string[]): number | null {
  const col = (Array.isArray(a['job-impressions-completed-col']) ? a['job-impressions-completed-col'][0] : a['job-impressions-completed-col']) as Attrs | undefined;
  if (!col || typeof col !== 'object') return null;
  const told = members.map((m) => num(col[m])).filter((v): v is number => v !== null);
  return told.length ? told.reduce((x, y) => x + y, 0) : null;
}

/**
 * Colour pages: the colour impressions where the server counts them by kind; 0 for a job
 * printed in a monochrome mode; otherwise unknown (null), never a guessed 0.
 */
export function colourOf(a: Attrs, pages: number): number | null {
  if (impressions(a, ALL_IMPRESSIONS) !== null) {
    const colour = impressions(a, COLOUR_IMPRESSIONS) ?? 0;
    return pages > 0 ? Math.min(colour, pages) : colour;
  }
  const mode = str(a['print-color-mode']);
  return mode && MONOCHROME_MODES.has(mode) ? 0 : null;
}

/** A job as the agent protocol sends it, or null for a job that is not complete. */
export function toJob(a: Attrs): AgentQueueJob | null {
  const id = num(a['job-id']);
  const completedAt = when(a['time-at-completed']) ?? when(a['date-time-at-completed']);
  if (id === null || id < 1 || !completedAt) return null;
  const sides = str(a.sides);
  const media = str(a.media) ?? str((a['media-col'] as Attrs | undefined)?.['media-size-name']);
  const pages = num(a['job-impressions-completed']) || impressions(a, ALL_IMPRESSIONS) || num(a['job-media-sheets-completed']) || 0;
  const colourPages = colourOf(a, pages);
  const clamp = (n: number | null, max: number) => (n === null ? null : Math.max(0, Math.min(max, Math.round(n))));
  return {
    externalJobId: id,
    name: fit(str(a['job-name']), 255),
    username: fit(str(a['job-originating-user-name']), 255) ?? '',
    clientMachine: fit(str(a['job-originating-host-name']), 255),
    createdAt: when(a['time-at-creation']) ?? when(a['date-time-at-creation']),
    completedAt,
    printedPageCount: clamp(pages, 1_000_000)!,
    colorPageCount: clamp(colourPages, 1_000_000),
    sizeKb: clamp(num(a['job-k-octets']), 2_147_483_647),
    paperSize: fit(media, 100),
    duplex: sides ? sides.startsWith('two-sided') : null,
  };
}

/**
 * CUPS or any IPP print server: the printer's device-uri (CUPS names the printer behind the
 * queue there) and Get-Jobs with which-jobs=completed. A server-wide queue (no url) reads the
 * jobs of every printer and names no printer.
 */
export async function readIppQueue(q: AgentQueue, opts: QueueReadOptions): Promise<QueueRead> {
  let printerUri: string | null = null;
  if (q.url && q.url !== '/') {
    const printer = await call(q, 'Get-Printer-Attributes', { 'requested-attributes': ['device-uri', 'printer-uri-supported'] }, opts);
    printerUri = str(entries(printer['printer-attributes-tag'])[0]?.['device-uri']);
  }
  const res = await call(q, 'Get-Jobs', { 'which-jobs': 'completed', 'requested-attributes': JOB_ATTRIBUTES }, opts);
  const jobs = entries(res['job-attributes-tag']).map(toJob).filter((j): j is AgentQueueJob => j !== null);
  return { printerUri, jobs };
}
