import { AppError } from './app-error.ts';

/** What a refused export is told to wait before it asks again (seconds). */
export const RETRY_AFTER_S = 30;

/** A place in the gate: `ready` resolves when the export may run; `release()` frees the place (once). */
export type ExportTicket = {
  /** How many exports were running or waiting when this one came (0: it runs at once). */
  ahead: number;
  ready: Promise<void>;
  release: () => void;
};

/**
 * How many exports (report files, scheduled report e-mails) one server makes at once, and how
 * many wait for a turn (issue 39). Eight XLSX files at once took the server's memory from 250 to
 * 647 MB, and on PGlite the event loop for as long as they ran. `running` run at once, up to
 * `waiting` more wait in the order they came, and a user's export beyond that is refused with
 * EXPORTS_BUSY (503 and Retry-After); a scheduled job runs when a place is free (`runIfFree`).
 */
export class ExportGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  readonly running: number;
  readonly waiting: number;

  constructor(running: number, waiting: number) {
    this.running = Math.max(1, running);
    this.waiting = Math.max(0, waiting);
  }

  /** Exports running and waiting now. */
  get state() {
    return { running: this.active, waiting: this.queue.length };
  }

  /** A user's export: a place now or in the queue; refused with EXPORTS_BUSY when the queue is full. */
  enter(): ExportTicket {
    if (this.active >= this.running && this.queue.length >= this.waiting) {
      throw new AppError('EXPORTS_BUSY', { params: { seconds: RETRY_AFTER_S }, headers: { 'retry-after': String(RETRY_AFTER_S) } });
    }
    return this.take();
  }

  /**
   * Runs a scheduled job's `work` in a place of its own if one is free now, else does not run it
   * (false): a job's pass must not wait behind users' files, and its next pass comes soon.
   */
  async runIfFree<T>(work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (this.active >= this.running) return { ran: false };
    const ticket = this.take();
    try {
      return { ran: true, value: await work() };
    } finally {
      ticket.release();
    }
  }

  private take(): ExportTicket {
    const ahead = this.active + this.queue.length;
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    let resolve!: () => void;
    const ready = new Promise<void>((r) => (resolve = r));
    const start = () => {
      state = 'running';
      this.active++;
      resolve();
    };
    const now = this.active < this.running;
    if (now) start();
    else this.queue.push(start);
    const release = () => {
      if (state === 'waiting') {
        // Given up while waiting (the client went away): its place in the queue goes.
        this.queue.splice(this.queue.indexOf(start), 1);
      } else if (state === 'running') {
        this.active--;
        this.queue.shift()?.();
      }
      state = 'done';
    };
    return { ahead: now ? 0 : ahead, ready, release };
  }
}
