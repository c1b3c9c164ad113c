import type { NotificationData } from '@mantine/notifications';

// Mantine's toasts (their store, container and transitions, about 20 KB gzip) load beside the
// start, not in it (issue 53): the sign-in form does not wait for them. A toast asked for before
// they arrive is shown once they have; the container mounts in App behind a Suspense.
export const loadNotifications = () => import('@mantine/notifications');

/** Shows a toast (Mantine's `notifications.show`). */
export function showToast(data: NotificationData): void {
  void loadNotifications().then((m) => m.notifications.show(data));
}
