import type { WsMessage } from '@pagewatch/contracts/ws';

/** Spec section 9: the duration comes in milliseconds and shows in seconds with 3 decimals. */
export function formatDuration(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : (ms / 1000).toFixed(3);
}

/** Where a record's object opens (spec, Logs): users, agents and network ranges. */
const OBJECT_PAGES: Record<string, string> = { UserDao: '/user', AgentDao: '/agent', NetworkRangeDao: '/network', QueueDao: '/queue' };

export function objectHref(objectClass: string | null, objectId: number | null): string | null {
  const base = objectClass ? OBJECT_PAGES[objectClass] : undefined;
  return base && objectId !== null ? `${base}/${objectId}` : null;
}

export const LIVE_RELOAD_DELAY_MS = 500;

/**
 * The live rules of the log detail (spec section 4): a response message or EVENT_LOG_CHANGED
 * reloads after 500 ms (several within that time reload once); EVENT_LOG_FINISHED reloads at
 * once and stops listening. Returns the message handler and a cancel for unmounting.
 */
export function logLiveHandler(id: number, actions: { reload: () => void; stop: () => void }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const onMessage = (msg: WsMessage) => {
    if (stopped) return;
    if (msg.type === 'EVENT_LOG_FINISHED' && msg.id === id) {
      clearTimeout(timer);
      stopped = true;
      actions.stop();
      actions.reload();
      return;
    }
    const changed = msg.type === 'EVENT_LOG_CHANGED' && msg.id === id;
    const answered = msg.type === 'response' && msg.command === 'subscribe-log-events';
    if ((changed || answered) && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        actions.reload();
      }, LIVE_RELOAD_DELAY_MS);
    }
  };
  const cancel = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { onMessage, cancel };
}
