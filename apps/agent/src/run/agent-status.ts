import type { AgentStatus } from '@pagewatch/contracts/agent-api';
import type { AgentLog } from './collect.ts';
import type { AgentTransport } from './transport.ts';

/** The agent's status: logged when it changes, told to the caller, and sent to the server (best effort). */
export type StatusReporter = {
  readonly status: AgentStatus;
  set(next: AgentStatus, message?: string): void;
  /** Sends the latest status not yet sent (after a success of the sender, at the stop). */
  push(): Promise<void>;
};

export function createStatusReporter(
  transport: AgentTransport,
  log: AgentLog,
  pendingCount: () => number,
  onStatus?: (status: AgentStatus, message?: string) => void,
): StatusReporter {
  let status: AgentStatus = 'IDLE';
  let statusToSend: { status: AgentStatus; message?: string } | null = null;
  let statusSending: Promise<void> | null = null;
  /** Best effort: the latest status goes out when the server can be reached. */
  function push(): Promise<void> {
    if (statusSending) return statusSending;
    if (!statusToSend) return Promise.resolve();
    statusSending = (async () => {
      await Promise.resolve(); // so the assignment above happens before the finally below
      try {
        while (statusToSend) {
          const s: { status: AgentStatus; message?: string } = statusToSend;
          await transport.status(s.status, s.message, pendingCount());
          if (statusToSend === s) statusToSend = null;
        }
      } catch {
        // kept in statusToSend; the sender retries after its next success
      } finally {
        statusSending = null;
      }
    })();
    return statusSending;
  }
  return {
    get status() {
      return status;
    },
    set(next, message) {
      if (next !== status) log(next === 'ERROR' ? 'error' : 'info', `status ${next}${message ? `: ${message}` : ''}`);
      status = next;
      onStatus?.(next, message);
      statusToSend = { status: next, message };
      void push();
    },
    push,
  };
}
