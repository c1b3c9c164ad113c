import { olderVersion } from '@pagewatch/contracts/agent-api';
import type { AgentUpdateOffer } from '@pagewatch/contracts/agent-api';
import type { AgentLog } from '../run/collect.ts';
import { confirmUpdate, pendingUpdate, rollBack, takeRolledBack } from './pending-update.ts';
import type { UpdatePaths } from './pending-update.ts';
import { installUpdate, UpdateRefused } from './self-update.ts';

export type UpdaterOptions = UpdatePaths & {
  version: string;
  log: AgentLog;
  /** Writes the offered executable to a path (from the agent's own server, over its authenticated channel). */
  download: (offer: AgentUpdateOffer, dest: string) => Promise<void>;
  /** Stops the agent and starts the executable now in place (the new one, or the previous after a roll-back). */
  restart: () => Promise<void>;
  /** Tells the server an offered release was refused, so the console shows why. */
  report: (version: string, error: string) => void;
  /** How long a new version has to check in before the previous file is put back (default 60 s). */
  healthMs?: number;
};

export type Updater = {
  /** The server answered: a pending update is confirmed. */
  checkedIn(): void;
  offered(offer: AgentUpdateOffer): void;
  close(): void;
};

/**
 * The self-update of a single-file agent (issue 44): installs what the server offers, restarts,
 * and after an update watches the first check-in; without one in time it puts the previous
 * executable back and restarts that. A refused release is not tried again until the server
 * offers another.
 */
export function createUpdater(options: UpdaterOptions): Updater {
  const { log } = options;
  const refused = new Set<string>();
  let busy = false;
  let watchdog: NodeJS.Timeout | null = null;
  const healthMs = options.healthMs ?? 60_000;
  const undone = takeRolledBack(options.stateDir);
  /** Told at the first check-in: at start the server may still be out of reach (the reason for the roll-back). */
  let toReport: { version: string; reason: string } | null = null;
  const pending = pendingUpdate(options.stateDir);
  if (undone) {
    // Back on the previous file: that release is not taken again until the server offers another.
    const reason = undone.reason ?? `version ${undone.to} did not reach the server after the update; ${undone.from} was put back`;
    log('error', reason);
    refused.add(undone.to);
    toReport = { version: undone.to, reason };
  }
  if (pending && pending.to === options.version) {
    log('info', `first start after the update from ${pending.from} to ${pending.to}: waiting for the server to answer`);
    watchdog = setTimeout(() => {
      log('error', `version ${pending.to} did not reach the server within ${Math.round(healthMs / 1000)} s: going back to ${pending.from}`);
      const reason = `version ${pending.to} did not reach the server within ${Math.round(healthMs / 1000)} s of the update; ${pending.from} was put back`;
      if (rollBack(options, reason)) void options.restart();
    }, healthMs);
  } else if (pending) {
    confirmUpdate(options.stateDir); // put back by hand or rolled back: nothing to watch
  }

  return {
    checkedIn() {
      if (toReport) {
        options.report(toReport.version, toReport.reason);
        toReport = null;
      }
      if (!watchdog) return;
      clearTimeout(watchdog);
      watchdog = null;
      confirmUpdate(options.stateDir);
      log('info', `update to ${options.version} confirmed`);
    },
    offered(offer) {
      const key = `${offer.version} ${offer.sha256}`;
      // Never sideways or back: an old release, however well signed, is not installed again.
      if (busy || watchdog || refused.has(key) || refused.has(offer.version) || !olderVersion(options.version, offer.version)) return;
      busy = true;
      log('info', `updating from ${options.version} to ${offer.version}`);
      void installUpdate(offer, options, options.version, (dest) => options.download(offer, dest))
        .then(async () => {
          log('info', `version ${offer.version} installed; restarting`);
          await options.restart();
        })
        .catch((error: unknown) => {
          const message = (error as Error).message;
          if (error instanceof UpdateRefused) {
            refused.add(key);
            log('error', `update to ${offer.version} refused: ${message}; this version keeps running`);
            options.report(offer.version, message);
          } else {
            log('warn', `update to ${offer.version} failed, tried again at the next check-in: ${message}`);
          }
        })
        .finally(() => {
          busy = false;
        });
    },
    close() {
      if (watchdog) clearTimeout(watchdog);
      watchdog = null;
    },
  };
}
