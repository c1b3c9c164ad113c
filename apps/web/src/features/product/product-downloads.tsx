import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../lib/download.ts';
import { notifyError } from '../../lib/errors.ts';
import { useDownloads } from './api/product-api.ts';

/** An ADMIN's downloads on the product page (spec section 2; both modes since issue 44): up to 50 agent builds, with their checksums, and documents. */
export function ProductDownloads() {
  const { t } = useTranslation();
  const files = useDownloads();
  const save = (name: string) => void downloadFile(`/options/downloads/${encodeURIComponent(name)}`, name).catch(notifyError);
  return (
    <Paper withBorder p="md" data-testid="product-downloads">
      <Title order={3} size="h5" mb="sm">{t('product.downloads')}</Title>
      {files.data?.length ? (
        <Stack gap={4}>
          {files.data.map((f) => (
            <Group key={f.name} gap="xs" wrap="nowrap">
              <IconDownload size={14} />
              <Anchor component="button" type="button" size="sm" onClick={() => save(f.name)}>{f.name}</Anchor>
              <Text size="xs" c="dimmed">{t('product.size', { size: Math.max(1, Math.round(f.size / 1024)) })}</Text>
              {f.sha256 && <Text size="xs" c="dimmed" ff="monospace" title={t('product.sha256')} data-testid="download-sha256">SHA-256 {f.sha256}</Text>}
            </Group>
          ))}
        </Stack>
      ) : (
        files.data && <Text size="sm" c="dimmed">{t('product.noDownloads')}</Text>
      )}
    </Paper>
  );
}
