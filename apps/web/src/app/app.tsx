import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// The dates' and the charts' styles come with the screens that use them (issue 53).
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { theme } from './theme.ts';
import { AppRouter } from './router.tsx';

export function App() {
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </MantineProvider>
  );
}
