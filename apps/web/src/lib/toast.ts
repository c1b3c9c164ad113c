import type { NotificationData } from '@mantine/notifications';

// Mantine's toasts (their store, container and transitions, about 10 KB gzip) are not part of the
// start (issue 53): the first toast a page asks for loads them, and toast-root.tsx draws them in a
// React root of their own, so that the console's tree is not rendered again for it. The toasts
// asked for meanwhile are shown once the container is up, each entering as a later one does.
let show: ((data: NotificationData) => void) | null = null;
const pending: NotificationData[] = [];

/** The container is up: what was asked for meanwhile is shown, and every later toast at once. */
export function toastsReady(showNow: (data: NotificationData) => void): void {
  show = showNow;
  for (const data of pending.splice(0)) showNow(data);
}

/** Shows a toast (Mantine's `notifications.show`). */
export function showToast(data: NotificationData): void {
  if (show) return show(data);
  pending.push(data);
  if (pending.length === 1) void import('./toast-root.tsx').then((m) => m.mountToasts());
}
