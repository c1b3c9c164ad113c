import type { ReactNode } from 'react';
import { Alert, Center, Loader } from '@mantine/core';
import { errorMessage } from '../../lib/errors.ts';

/**
 * What an item page shows while its data loads: the error when a load failed, a loader until
 * everything is there, then the page itself (built only then, so it may rely on the data).
 */
export function LoadState({ error, ready, children }: { error: unknown; ready: boolean; children: () => ReactNode }) {
  if (error) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(error)}
      </Alert>
    );
  }
  if (!ready) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  return <>{children()}</>;
}
