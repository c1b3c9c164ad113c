import { Alert, Button, Center, Stack } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors.ts';

/** The app could not start (usually: the server is not reachable). */
export function StartupError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Center h="100dvh" p="md">
      <Stack maw={480} w="100%">
        <Alert color="red" icon={<IconPlugConnectedX />} title={t('errors.startFailed')}>
          {errorMessage(error)}
        </Alert>
        <Button onClick={onRetry} variant="light">
          {t('general.retry')}
        </Button>
      </Stack>
    </Center>
  );
}
