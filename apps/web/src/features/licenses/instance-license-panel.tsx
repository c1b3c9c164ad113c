import { useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, List, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LICENSE_FILE_EXTENSION, LICENSE_STATUS_DEFS, type InstanceLicense } from '@pagewatch/contracts/licenses';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { LoadState } from '../../components/layout/load-state.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCurrentUser } from '../../lib/auth-context.tsx';
import { errorMessage, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { downloadLicenseRequest, fetchInstanceLicense, INSTANCE_LICENSE_KEY, licenseKeys, uploadInstanceLicense } from './api/licenses-api.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';

/** A read-only field's text: a dash where the license says nothing (none installed yet). */
const shown = (text: string | null | undefined) => text || '—';
const day = (iso: string | null) => shown(iso && formatDay(iso));
const count = (n: number | null) => shown(n === null ? null : formatNumber(n));
/** What was wrong with the file: the field's message when the server names one. */
const problem = (err: unknown) => (err instanceof ApiError && err.body?.details?.[0]?.message) || errorMessage(err);

/**
 * The DEFAULT location's license (spec sections 2 and 4): read only, as the issuer signed it;
 * the activation steps, the request download and the .lic upload.
 */
export function InstanceLicensePanel() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const owner = isDefaultAdmin(me);
  const info = useQuery({ queryKey: INSTANCE_LICENSE_KEY, queryFn: fetchInstanceLicense });
  const [company, setCompany] = useState(info.data?.companyName ?? '');
  const [companyError, setCompanyError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const request = useMutation({
    mutationFn: () => downloadLicenseRequest(company.trim()),
    meta: { silent: true },
    onError: (err) => setCompanyError(problem(err)),
  });
  const upload = useMutation({
    mutationFn: uploadInstanceLicense,
    meta: { silent: true },
    onMutate: () => setUploadError(null),
    onSuccess: (saved) => {
      notifySuccess('upload');
      queryClient.setQueryData(INSTANCE_LICENSE_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: licenseKeys.list });
    },
    onError: (err) => setUploadError(problem(err)),
  });
  const askForRequest = () => {
    // Spec section 5: the name is required here.
    if (!company.trim()) return setCompanyError(t('general.mandatory'));
    setCompanyError(null);
    request.mutate();
  };
  const pick = (file: File | null) => {
    if (!file) return;
    if (!file.name.toLowerCase().endsWith(LICENSE_FILE_EXTENSION)) return setUploadError(t('licenses.notLic'));
    upload.mutate(file);
  };

  return (
    <LoadState error={info.error} ready={!!info.data}>
      {() => {
        const l: InstanceLicense = info.data!;
        const def = LICENSE_STATUS_DEFS[l.status];
        return (
          <Stack gap="md" maw={900} data-testid="instance-license">
            <Alert color={def.color} title={<Group gap="xs"><Badge color={def.color} data-testid="license-status">{t(def.labelKey)}</Badge></Group>}>
              <Text size="sm" data-testid="license-description">{l.statusDescription}</Text>
            </Alert>
            <Paper withBorder p="md">
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput label={t('licenses.company')} readOnly value={shown(l.companyName)} />
                <TextInput label={t('licenses.dateFrom')} readOnly value={day(l.from)} data-testid="instance-from" />
                <TextInput label={t('licenses.dateTo')} readOnly value={day(l.to)} data-testid="instance-to" />
                <TextInput label={t('licenses.deviceCount')} readOnly value={count(l.counts.deviceCount)} data-testid="instance-count" />
                <TextInput label={t('licenses.activeDeviceCount')} readOnly value={count(l.counts.activeDeviceCount)} />
                <TextInput label={t('licenses.dbDeviceCount')} readOnly value={count(l.counts.dbDeviceCount)} />
              </SimpleGrid>
              <Text size="xs" c="dimmed" mt="sm">
                {t('licenses.instanceId', { id: l.instanceId })}
              </Text>
            </Paper>
            <Text size="sm" c="dimmed">{t('licenses.neverStops')}</Text>
            {owner && (
              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Title order={3} size="h5">{t('licenses.activation.title')}</Title>
                  <List type="ordered" size="sm" spacing={4}>
                    <List.Item>{t('licenses.activation.step1')}</List.Item>
                    <List.Item>{t('licenses.activation.step2')}</List.Item>
                    <List.Item>{t('licenses.activation.step3')}</List.Item>
                  </List>
                  <Group align="flex-end" gap="sm">
                    <TextInput
                      label={t('licenses.company')}
                      required
                      value={company}
                      onChange={(e) => setCompany(e.currentTarget.value)}
                      error={companyError}
                      maxLength={250}
                      w={320}
                      data-testid="license-company"
                    />
                    <Button leftSection={<IconDownload size={16} />} variant="default" loading={request.isPending} onClick={askForRequest} data-testid="license-request">
                      {t('licenses.request')}
                    </Button>
                    <FileButton onChange={pick} accept={LICENSE_FILE_EXTENSION}>
                      {(props) => (
                        <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending} data-testid="license-upload">
                          {t('licenses.upload')}
                        </Button>
                      )}
                    </FileButton>
                  </Group>
                  {uploadError && <Alert color="red" role="alert" data-testid="license-upload-error">{uploadError}</Alert>}
                </Stack>
              </Paper>
            )}
          </Stack>
        );
      }}
    </LoadState>
  );
}
