import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// The dates' and the charts' styles come with the screens that use them (issue 53).
import { lazy, Suspense } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { loadNotifications } from '../lib/toast.ts';
import { theme } from './theme.ts';
import { AppRouter } from './router.tsx';

// The toasts' container is off the start's path (lib/toast.ts).
const Notifications = lazy(() => loadNotifications().then((m) => ({ default: m.Notifications })));

export function App() {
  return (
    <MantineProvider theme={theme}>
      <Suspense fallback={null}>
        <Notifications position="top-right" />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </MantineProvider>
  );
}
