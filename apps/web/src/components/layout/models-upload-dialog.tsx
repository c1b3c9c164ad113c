import { Button, FileInput, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { showToast } from '../../lib/toast.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { sharedKeys } from '../../lib/query-keys.ts';

/** The models version's toast lasts 1.5 s (spec section 8), unlike other uploads' 3 s. */
const MODELS_TOAST_MS = 1500;

/** `POST /versions/upload` (spec section 7): the secret key and the pack file, from the footer. */
export function ModelsUploadDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [secretKey, setSecretKey] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: () => {
      const body = new FormData();
      body.append('secretKey', secretKey);
      body.append('version', file!);
      return api<{ version: number; message: string }>('/versions/upload', { method: 'POST', body });
    },
    onSuccess: (r) => {
      showToast({ color: 'green', message: r.message, autoClose: MODELS_TOAST_MS });
      void queryClient.invalidateQueries({ queryKey: sharedKeys.buildVersion });
      setSecretKey('');
      setFile(null);
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('layout.modelsUpload')} centered data-testid="models-upload-dialog">
      <Stack gap="sm">
        <PasswordInput label={t('layout.secretKey')} required autoComplete="off" value={secretKey} onChange={(e) => setSecretKey(e.currentTarget.value)} />
        <FileInput label={t('layout.modelsFile')} required clearable value={file} onChange={setFile} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('layout.cancel')}</Button>
          <Button loading={upload.isPending} disabled={!secretKey || !file} onClick={() => upload.mutate()} data-testid="models-upload-submit">
            {t('layout.upload')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
