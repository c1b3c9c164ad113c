import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentReading, DeviceOutcome, RefusalReason } from '@pagewatch/contracts/agent-api';
import type { QueueJobsRun, QueueRead } from '@pagewatch/contracts/agent-queues';
import { MAX_BATCH_READINGS } from '@pagewatch/contracts/agent-api';

/** What the agent tells the server, in the order it must arrive. */
export type SpoolRecord =
  | { kind: 'run-start'; runId: string; startedAt: string }
  | { kind: 'problem'; runId: string; rangeId: number | null; level: 'I' | 'W' | 'E'; message: string }
  | { kind: 'reading'; reading: AgentReading }
  | { kind: 'run-finish'; runId: string; finishedAt: string; rangeResults: RangeResult[] }
  | { kind: 'queue-jobs-run'; run: QueueJobsRun }
  /** One queue's read, as agents before one request per run spooled it: sent as a run of one queue. */
  | { kind: 'queue-jobs'; batch: QueueRead & { batchId: string; readAt: string } };

/** What became of a range's devices: read (fast or slow), silent to the poll, silent since an earlier run, or refusing. */
export type RangeSummary = {
  answered: number; slow: number; timedOut: number; unreachable: number;
  refused: number; refusals: Array<{ ip: string; reason: RefusalReason }>;
  /** Addresses discovery could not probe in time (issue 53): neither found nor silent. */
  unprobed: number;
};
export type RangeResult = { rangeId: number; scanned: number; found: number; durationMs: number; error: string | null; summary?: RangeSummary; devices?: DeviceOutcome[] };

/** One message to send: a control record, or consecutive readings as one batch. */
export type SpoolMessage = { firstLine: number; lines: number; records: SpoolRecord[] };

export type SpoolSegment = { seq: number; path: string };

export type SpoolOptions = {
  /** A segment is sealed (ready to send) this long after its first record at the latest. */
  sealAfterMs?: number;
  /** Called when a segment is sealed. */
  onSealed?: () => void;
};

const pad = (seq: number): string => String(seq).padStart(12, '0');

/**
 * The agent's disk spool: everything for the server is appended to an open segment file and
 * fsync'd before it counts as taken (group commit: one write and one fsync for whatever arrived
 * meanwhile). A segment is sealed when it holds a full batch, when a run finishes, or after a
 * short time; sealed segments are sent oldest first and deleted once the server acknowledged
 * every message in them. A crash loses at most a torn last line; a message acknowledged but
 * not yet marked done is sent again, and the server's idempotency (reading ids) absorbs it.
 */
export class Spool {
  readonly dir: string;
  private readonly sealAfterMs: number;
  private readonly onSealed: () => void;
  private seq: number;
  private fd: number | null = null;
  private openPath: string | null = null;
  private readingsInOpen = 0;
  private linesInOpen = 0;
  private sealTimer: NodeJS.Timeout | null = null;
  private queue: Array<{ record: SpoolRecord; resolve: () => void; reject: (e: Error) => void }> = [];
  private writing = false;

  constructor(dir: string, options: SpoolOptions = {}) {
    this.dir = dir;
    this.sealAfterMs = options.sealAfterMs ?? 2000;
    this.onSealed = options.onSealed ?? (() => undefined);
    mkdirSync(dir, { recursive: true });
    this.seq = this.recover();
  }

  /** Seals what a crash left open (dropping a torn last line) and returns the next free number. */
  private recover(): number {
    let max = 0;
    for (const name of readdirSync(this.dir)) {
      const m = /^(\d{12})\.(open|jsonl)$/.exec(name);
      if (!m) continue;
      max = Math.max(max, Number(m[1]));
      if (m[2] === 'open') {
        const path = join(this.dir, name);
        const lines = readFileSync(path, 'utf8').split('\n').filter((line) => isRecord(line));
        if (lines.length === 0) rmSync(path);
        else {
          writeFileSync(path, lines.map((l) => l + '\n').join(''));
          renameSync(path, join(this.dir, `${m[1]}.jsonl`));
        }
      }
    }
    return max + 1;
  }

  /** Resolves once the record is on disk. */
  append(record: SpoolRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => this.writeQueued());
      }
    });
  }

  private writeQueued(): void {
    const items = this.queue;
    this.queue = [];
    let chunk: string[] = [];
    const commit = (): void => {
      if (chunk.length === 0) return;
      writeSync(this.fd!, chunk.join(''));
      fsyncSync(this.fd!);
      chunk = [];
    };
    try {
      for (const item of items) {
        this.ensureOpen();
        chunk.push(JSON.stringify(item.record) + '\n');
        this.linesInOpen++;
        if (item.record.kind === 'reading') this.readingsInOpen++;
        // A full batch, or the end of a run, closes the segment.
        if (this.readingsInOpen >= MAX_BATCH_READINGS || item.record.kind === 'run-finish') {
          commit();
          this.seal();
        }
      }
      if (this.fd !== null) commit();
      for (const item of items) item.resolve();
    } catch (error) {
      for (const item of items) item.reject(error as Error);
    }
    this.writing = false;
    if (this.queue.length > 0) {
      this.writing = true;
      setImmediate(() => this.writeQueued());
    }
  }

  private ensureOpen(): void {
    if (this.fd !== null) return;
    this.openPath = join(this.dir, `${pad(this.seq)}.open`);
    this.fd = openSync(this.openPath, 'a');
    this.syncDir();
    this.readingsInOpen = 0;
    this.linesInOpen = 0;
    this.sealTimer = setTimeout(() => this.sealWhenIdle(), this.sealAfterMs);
    this.sealTimer.unref();
  }

  private sealWhenIdle(): void {
    if (this.writing) {
      this.sealTimer = setTimeout(() => this.sealWhenIdle(), 10);
      return;
    }
    this.seal();
  }

  /** Closes the open segment (if any) so the sender takes it. */
  seal(): void {
    if (this.sealTimer) clearTimeout(this.sealTimer);
    this.sealTimer = null;
    if (this.fd === null || this.openPath === null) return;
    closeSync(this.fd);
    this.fd = null;
    if (this.linesInOpen === 0) rmSync(this.openPath);
    else renameSync(this.openPath, join(this.dir, `${pad(this.seq)}.jsonl`));
    this.syncDir();
    this.openPath = null;
    // Nothing is open any more: the pending count must not keep the sealed segment's lines.
    this.linesInOpen = 0;
    this.readingsInOpen = 0;
    this.seq++;
    this.onSealed();
  }

  /** Waits for queued appends, then seals. */
  async flushOpen(): Promise<void> {
    while (this.writing || this.queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    this.seal();
  }

  private syncDir(): void {
    try {
      const fd = openSync(this.dir, 'r');
      fsyncSync(fd);
      closeSync(fd);
    } catch {
      // some file systems cannot fsync a directory; the file's own fsync still holds
    }
  }

  /** Sealed segments, oldest first. */
  sealed(): SpoolSegment[] {
    return readdirSync(this.dir)
      .filter((name) => /^\d{12}\.jsonl$/.test(name))
      .sort()
      .map((name) => ({ seq: Number(name.slice(0, 12)), path: join(this.dir, name) }));
  }

  /** Records of sealed and open segments not yet acknowledged (for tests and status). */
  pendingCount(): number {
    let n = 0;
    for (const s of this.sealed()) n += this.messages(s).reduce((sum, m) => sum + m.records.length, 0);
    return n + this.linesInOpen + this.queue.length;
  }

  /** The segment's messages still to send: control records alone, readings in batches. */
  messages(segment: SpoolSegment): SpoolMessage[] {
    const done = this.acked(segment);
    const lines = readFileSync(segment.path, 'utf8').split('\n');
    const out: SpoolMessage[] = [];
    let batch: SpoolMessage | null = null;
    lines.forEach((line, i) => {
      if (i < done || !line) return;
      let record: SpoolRecord;
      try {
        record = JSON.parse(line) as SpoolRecord;
      } catch {
        return;
      }
      if (record.kind === 'reading') {
        if (!batch || batch.records.length >= MAX_BATCH_READINGS) {
          batch = { firstLine: i, lines: 0, records: [] };
          out.push(batch);
        }
        batch.records.push(record);
        batch.lines = i - batch.firstLine + 1;
      } else {
        batch = null;
        out.push({ firstLine: i, lines: 1, records: [record] });
      }
    });
    return out;
  }

  /** Marks the segment's lines before `line` as sent. */
  ack(segment: SpoolSegment, line: number): void {
    writeFileSync(segment.path.replace(/\.jsonl$/, '.ack'), String(line));
  }

  private acked(segment: SpoolSegment): number {
    try {
      return Number(readFileSync(segment.path.replace(/\.jsonl$/, '.ack'), 'utf8')) || 0;
    } catch {
      return 0;
    }
  }

  /** The segment is fully delivered. */
  remove(segment: SpoolSegment): void {
    rmSync(segment.path, { force: true });
    rmSync(segment.path.replace(/\.jsonl$/, '.ack'), { force: true });
  }

  /** Keeps a message the server refused for good, out of the queue, for a person to look at. */
  reject(segment: SpoolSegment, message: SpoolMessage, reason: string): void {
    const dir = join(this.dir, 'rejected');
    mkdirSync(dir, { recursive: true });
    const body = { reason, records: message.records };
    writeFileSync(join(dir, `${pad(segment.seq)}-${message.firstLine}.json`), JSON.stringify(body));
  }

  close(): void {
    if (this.sealTimer) clearTimeout(this.sealTimer);
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}

function isRecord(line: string): boolean {
  if (!line) return false;
  try {
    const r = JSON.parse(line) as { kind?: unknown };
    return typeof r.kind === 'string';
  } catch {
    return false;
  }
}
