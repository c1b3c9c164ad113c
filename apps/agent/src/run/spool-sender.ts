import type { AgentLog } from './collect.ts';
import { isUpdateRequired, updateRequiredLine } from './config-keeper.ts';
import { deliver } from './deliver.ts';
import type { StatusReporter } from './agent-status.ts';
import type { Spool, SpoolSegment } from './spool.ts';
import { TransportError, type AgentTransport } from './transport.ts';

export type SpoolSenderOptions = {
  transport: AgentTransport;
  spool: Spool;
  log: AgentLog;
  status: StatusReporter;
  /** The runner's sleep, which a new segment and the stop cut short. */
  sleep: (ms: number) => Promise<void>;
  retryMin: number;
  retryMax: number;
  /** No run under way and no stop: a delivery may clear an ERROR status. */
  idle: () => boolean;
};

/**
 * Delivers the spool's sealed segments to the server, oldest first, with a doubling backoff
 * while it cannot be reached; started at once, it runs until `stop`.
 */
export function startSpoolSender({ transport, spool, log, status, sleep, retryMin, retryMax, idle }: SpoolSenderOptions) {
  let senderStop = false;
  /** Set by stop: what is sealed is tried once more, with no retries, then the sender ends. */
  let lastPass = false;

  /** Delivers one segment's messages; false when the server did not take them (kept for later). */
  async function sendSegment(segment: SpoolSegment, retry: { backoff: number }): Promise<boolean> {
    for (const message of spool.messages(segment)) {
      try {
        await deliver(transport, spool, log, segment, message);
      } catch (error) {
        if (error instanceof TransportError && error.kind === 'rejected') {
          // Retrying cannot make the server take it: set it aside and carry on.
          log('warn', `the server refused a message (kept in ${spool.dir}/rejected): ${error.message}`);
          spool.reject(segment, message, error.message);
        } else if (isUpdateRequired(error)) {
          // Kept in the spool for the updated agent; asked again at the slowest pace.
          status.set('ERROR', error.message);
          log('error', updateRequiredLine(error.message));
          retry.backoff = retryMax;
          return false;
        } else {
          if (error instanceof TransportError && error.kind === 'unauthorized') status.set('ERROR', error.message);
          log('warn', `cannot deliver (${spool.pendingCount()} records wait, next try in ${Math.round(retry.backoff / 1000)} s): ${(error as Error).message}`);
          return false;
        }
      }
      spool.ack(segment, message.firstLine + message.lines);
      retry.backoff = retryMin;
    }
    return true;
  }

  async function sendLoop(): Promise<void> {
    const retry = { backoff: retryMin };
    while (!senderStop) {
      const segment = spool.sealed()[0];
      if (!segment) {
        if (lastPass) break;
        await sleep(1000);
        continue;
      }
      if (!(await sendSegment(segment, retry))) {
        if (senderStop || lastPass) break;
        await sleep(retry.backoff);
        retry.backoff = Math.min(retry.backoff * 2, retryMax);
        continue;
      }
      spool.remove(segment);
      if (status.status === 'ERROR' && idle()) status.set('IDLE');
      void status.push();
    }
  }

  let finished = false;
  const done = sendLoop().finally(() => {
    finished = true;
  });
  return {
    /** Settles when the sender has ended. */
    done,
    get finished() {
      return finished;
    },
    /** What is sealed is tried once more, with no retries, then the sender ends. */
    lastPass() {
      lastPass = true;
    },
    stop() {
      senderStop = true;
    },
  };
}
