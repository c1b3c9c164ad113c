import type { BuildVersion } from '@pagewatch/contracts/config';
import { DEFAULT_LOCATION_CODE } from '@pagewatch/contracts/location-codes';
import { Anchor, AppShell, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { sharedKeys } from '../../lib/query-keys.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { canOpen } from '../../lib/screen-access.ts';
import { LicenseStatusLink } from './license-status-link.tsx';
import { lazyScreen, ScreenFrame } from './lazy-screen.tsx';
import { formatDay } from '../../lib/format.ts';

// Its own chunk (with Mantine's Modal): the shell's start does not carry a dialog few open.
const ModelsUploadDialog = lazyScreen(() => import('./models-upload-dialog.tsx'), 'ModelsUploadDialog');

/** The version line (shown only with MNU_VERSIONS.READ; the layout decides) and the license status link. */
export function AppFooter() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [uploadOpen, setUploadOpen] = useState(false);
  // The instance license is DEFAULT's: only those who hold that location are asked about it.
  const seesLicense = canOpen('licenses', auth) && !!auth.user?.locations.some((l) => l.code === DEFAULT_LOCATION_CODE);
  const { data } = useQuery({
    queryKey: sharedKeys.buildVersion,
    queryFn: () => api<BuildVersion>('/options/build-version/'),
    staleTime: Infinity,
    // The footer is decoration; a failure here must not raise a toast on every screen.
    meta: { silent: true },
  });
  return (
    <AppShell.Footer px="sm">
      <Group h="100%" justify="flex-end" gap="md" wrap="nowrap">
        {seesLicense && <LicenseStatusLink />}
        {data && (
          <Text size="xs" c="dimmed" truncate data-testid="app-version">
            {t('layout.version', { version: data.appVersion, build: data.buildNumber, date: formatDay(data.releaseDate) })}
            {' · '}
            {/* Spec section 1: the models version opens the upload dialog. */}
            <Anchor component="button" type="button" size="xs" onClick={() => setUploadOpen(true)} data-testid="models-version">
              {data.modelsVersion ? t('layout.modelsVersion', { version: data.modelsVersion.versionNumber }) : t('layout.modelsNone')}
            </Anchor>
          </Text>
        )}
        {uploadOpen && (
          <ScreenFrame>
            <ModelsUploadDialog opened onClose={() => setUploadOpen(false)} />
          </ScreenFrame>
        )}
      </Group>
    </AppShell.Footer>
  );
}
