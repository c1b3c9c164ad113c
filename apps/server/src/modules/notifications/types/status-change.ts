import type { NotificationRow } from '../notifications.repository.ts';
import { fireDigest, type TypeHandler } from './handler.ts';

const STATUS_OF = /^([A-Z_]+)/;

/** A STATUS_CHANGE notification that hears of errors: its device errors are alerts, told at their start and end. */
export const watchesErrors = (n: NotificationRow) => n.statuses.length === 0 || n.statuses.includes('ERROR');
/** One that hears of devices not available: their DEVICE_OFFLINE alerts are told at their start (the event) and end. */
export const watchesOffline = (n: NotificationRow) => n.statuses.length === 0 || n.statuses.includes('NOT_AVAILABLE');

/** A device's status changed (its errors' and unavailability's ends are alerts: ../dispatcher.ts). */
export const statusChange: TypeHandler = {
  events: {
    hears: (n, e) => {
      const status = STATUS_OF.exec(e.newValue ?? '')?.[1] ?? e.statusCode;
      // A device in error is told once when it starts and once when it clears (issue 42): back
      // from unreachable still in error is the same error; its end is the alert's "resolved" mail.
      if (watchesErrors(n) && ((status === 'ERROR' && e.errorGoesOn) || (e.type === 'STATUS_CHANGE' && e.errorEnds))) return false;
      // A device not available is an alert too (issue 54): back online, its end is the alert's mail.
      if (watchesOffline(n) && e.offlineEnds) return false;
      return n.statuses.length === 0 || n.statuses.includes(status);
    },
    facts: (kit, e) => ({ ...kit.facts(e, e.eventAt), status: e.newValue ?? e.statusCode }),
  },
  fire: fireDigest,
};
