import { useState } from 'react';
import { Alert, Button, FileButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlayerStop, IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SERVICE_FILE_EXTENSION, SERVICE_FILE_MAX_BYTES, type ServiceResult } from '@pagewatch/contracts/devices';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { TitledCard } from '../../components/layout/titled-card.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage, notifyMessage } from '../../lib/errors.ts';
import { resetStatus, uploadSerials, type UploadAction } from './maintenance-api.ts';

/** What the browser can tell before sending: the type and the size (the server checks again). */
function localProblem(file: File): string | null {
  if (!file.name.toLowerCase().endsWith(SERVICE_FILE_EXTENSION)) return 'service.notTxt';
  if (file.size === 0) return 'service.emptyFile';
  if (file.size > SERVICE_FILE_MAX_BYTES) return 'service.tooLarge';
  return null;
}

/** Shows the server's message (spec section 8: service actions show the server message). */
function Outcome({ result, error }: { result?: ServiceResult; error: string | null }) {
  if (error) return <Alert color="red" data-testid="service-result" role="alert">{error}</Alert>;
  if (!result) return null;
  return (
    <Alert color={result.notFound.length || result.invalidLines.length ? 'yellow' : 'green'} data-testid="service-result">
      {result.message}
    </Alert>
  );
}

function Uploader({ action, title, hint, disabled }: { action: UploadAction; title: string; hint: string; disabled: boolean }) {
  const { t } = useTranslation();
  const [fileName, setFileName] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => uploadSerials(action, file),
    onSuccess: (r) => notifyMessage(r.message),
  });
  const pick = (file: File | null) => {
    if (!file) return;
    setFileName(file.name);
    upload.reset();
    const problem = localProblem(file);
    setLocalError(problem ? t(problem) : null);
    if (!problem) upload.mutate(file);
  };
  return (
    <TitledCard title={title} hint={hint} order={4} testId={`uploader-${action}`}>
      <Stack gap="sm">
        <Group gap="sm">
          <FileButton onChange={pick} accept=".txt,text/plain" disabled={disabled}>
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending} disabled={disabled}>
                {t('service.chooseFile')}
              </Button>
            )}
          </FileButton>
          {fileName ? <Text size="sm">{fileName}</Text> : null}
        </Group>
        <Outcome result={upload.data} error={localError ?? (upload.error ? errorMessage(upload.error) : null)} />
      </Stack>
    </TitledCard>
  );
}

/** `/service` (spec sections 2 and 4): stop maintenance for all devices, or set it by a list of serials. */
export function ServicePage() {
  const { t } = useTranslation();
  const allowed = useHasGrant('BTN_DEVICE_ACTIVITY.EXECUTE');
  const reset = useConfirmedMutation({
    mutationFn: resetStatus,
    onSuccess: (r) => notifyMessage(r.message),
  });
  return (
    <AppPage title={t('nav.service')}>
      {!allowed ? <Alert color="yellow">{t('service.noGrant')}</Alert> : null}
      <TitledCard title={t('service.stopTitle')} hint={t('service.stopHint')} order={4}>
        <Stack gap="sm">
          <Group>
            <Button color="red" leftSection={<IconPlayerStop size={16} />} disabled={!allowed} onClick={() => reset.ask()}>
              {t('service.stopAll')}
            </Button>
          </Group>
          <Outcome result={reset.mutation.data} error={reset.mutation.error ? errorMessage(reset.mutation.error) : null} />
        </Stack>
      </TitledCard>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Uploader action="set-active-status" title={t('service.enableTitle')} hint={t('service.fileHint')} disabled={!allowed} />
        <Uploader action="set-inactive-status" title={t('service.disableTitle')} hint={t('service.fileHint')} disabled={!allowed} />
      </SimpleGrid>
      <ConfirmDialog {...reset.dialog} title={t('service.stopTitle')} message={t('service.stopConfirm')} confirmLabel={t('service.stopAll')} />
    </AppPage>
  );
}
