import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// The dates' and the charts' styles come with the screens that use them (issue 53); the toasts'
// container with the first toast, in a root of its own (lib/toast.ts).
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { theme } from './theme.ts';
import { AppRouter } from './router.tsx';

export function App() {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </MantineProvider>
  );
}
