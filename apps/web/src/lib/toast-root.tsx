import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { theme } from '../app/theme.ts';
import { toastsReady } from './toast.ts';

function Toasts() {
  // After the container's own effects (its position in the store): the waiting toasts then enter.
  useEffect(() => toastsReady((data) => notifications.show(data)), []);
  return <Notifications position="top-right" />;
}

let mounted = false;

/** Draws the toasts in a root of their own (lib/toast.ts); the console's provider already set the CSS variables. */
export function mountToasts(): void {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(
    <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
      <Toasts />
    </MantineProvider>,
  );
}
