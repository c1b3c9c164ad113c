import type { BuildVersion } from '@pagewatch/contracts/config';
import { AppShell, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';

/** The version line (shown only with MNU_VERSIONS.READ; the layout decides). */
export function AppFooter() {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['build-version'],
    queryFn: () => api<BuildVersion>('/options/build-version/'),
    staleTime: Infinity,
    // The footer is decoration; a failure here must not raise a toast on every screen.
    meta: { silent: true },
  });
  return (
    <AppShell.Footer px="sm">
      <Group h="100%" justify="flex-end" gap="md" wrap="nowrap">
        {data && (
          <Text size="xs" c="dimmed" truncate data-testid="app-version">
            {t('layout.version', { version: data.appVersion, build: data.buildNumber, date: data.releaseDate })}
            {data.modelsVersion && ` · ${t('layout.modelsVersion', { version: data.modelsVersion.versionNumber })}`}
          </Text>
        )}
      </Group>
    </AppShell.Footer>
  );
}
