import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Group, Modal, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconMailForward } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HISTORY_MONTHS_MAX, ALERT_REPEAT_HOURS_MAX, OFFLINE_MISSED_POLLS_MAX, LOG_STORAGE_DAYS_MAX, PROCESS_PERIODICITIES, START_TLS_MODES, smtpPortFor, testEmailSchema, type Setting, type StartTlsMode } from '@pagewatch/contracts/settings';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { AppPage } from '../../components/layout/app-page.tsx';
import { TitledCard } from '../../components/layout/titled-card.tsx';
import { SecretInput } from '../../components/form/secret-input.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { showServerErrors } from '../../components/form/server-errors.ts';
import { ApiError } from '../../lib/api.ts';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { CloudMaintenance } from './cloud-maintenance.tsx';
import { ChannelsSection } from './channels-section.tsx';
import { MailLinksWarning } from '../../components/layout/mail-links-warning.tsx';
import { errorMessage, notifyMessage, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { fetchSettings, saveSettings, sendTestEmail, SETTINGS_QUERY_KEY } from './api/settings-api.ts';
import { saveBodyOf, fieldOfCode, needsCurrentPassword, validateSettings, valuesOf, type SettingsFormValues } from './settings-form-values.ts';

/** `/settings` (spec sections 2, 4 and 5): SMTP, the agents' periodicity and log clearing. */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: SETTINGS_QUERY_KEY, queryFn: fetchSettings });
  return (
    <AppPage title={t('nav.settings')}>
      <LoadState error={settings.error} ready={!!settings.data}>
        {() => <SettingsForm settings={settings.data!} />}
      </LoadState>
    </AppPage>
  );
}

function SettingsForm({ settings }: { settings: Setting[] }) {
  const { t } = useTranslation();
  const { hasGrant, config } = useAuth();
  const me = useCurrentUser();
  // Instance settings are the default administrator's alone (the server says so too).
  const owner = isDefaultAdmin(me);
  const canEdit = hasGrant('MNU_SETTINGS.EDIT') && owner;
  const [testOpen, setTestOpen] = useState(false);
  const form = useForm<SettingsFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(settings),
    validate: (v) => validateSettings(v, settings),
  });
  const input = useTranslatedInput(form);
  const v = form.getValues();
  const passwordSet = settings.find((s) => s.code === 'SMTP_PASSWORD')?.isSet ?? false;

  const save = useMutation({
    mutationFn: (values: SettingsFormValues) => saveSettings(saveBodyOf(values)),
    onSuccess: (saved) => {
      notifySuccess('updated');
      queryClient.setQueryData(SETTINGS_QUERY_KEY, saved);
      form.setValues(valuesOf(saved));
      form.resetDirty();
    },
    onError: showServerErrors(form, fieldOfCode),
  });

  // Spec section 4: SSL and start-TLS choose the port; trust-all exists only with SSL.
  const setSsl = (ssl: boolean) => {
    form.setFieldValue('ssl', ssl);
    form.setFieldValue('port', smtpPortFor(ssl, v.startTls));
    if (!ssl) form.setFieldValue('trustAll', false);
  };
  const setStartTls = (mode: StartTlsMode) => {
    form.setFieldValue('startTls', mode);
    if (v.ssl) form.setFieldValue('port', smtpPortFor(true, mode));
  };

  return (
    <>
    <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate data-testid="settings-form">
      <Stack gap="md" maw={900}>
        {!owner && (
          <Alert color="blue" data-testid="settings-read-only">
            {t('settings.readOnly')}
          </Alert>
        )}
        <MailLinksWarning />
        <fieldset disabled={!canEdit || save.isPending} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="md">
            <TitledCard title={t('settings.smtp')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput label={t('settings.host')} required placeholder="smtp.example.com" maxLength={1000} {...input('host')} />
                <NumberInput label={t('settings.port')} required min={1} max={65535} allowDecimal={false} allowNegative={false} {...input('port')} />
                <TextInput label={t('settings.username')} autoComplete="off" maxLength={1000} {...input('username')} />
                <SecretInput
                  label={t('settings.password')}
                  maxLength={1000}
                  isSet={passwordSet}
                  hints={{ stored: t('settings.passwordStored'), notSet: t('settings.passwordNotSet'), keep: t('settings.passwordKeep') }}
                  {...input('password')}
                />
                <Select
                  label={t('settings.startTls')}
                  data={START_TLS_MODES.map((m) => ({ value: m, label: t(`settings.startTlsMode.${m}`) }))}
                  allowDeselect={false}
                  {...input('startTls')}
                  onChange={(m) => m && setStartTls(m as StartTlsMode)}
                />
                <TextInput label={t('settings.from')} placeholder="pagewatch@example.com" maxLength={1000} {...input('from')} />
              </SimpleGrid>
              <Group gap="xl" mt="md">
                <Checkbox label={t('settings.ssl')} {...input('ssl', { type: 'checkbox' })} onChange={(e) => setSsl(e.currentTarget.checked)} />
                {v.ssl && <Checkbox label={t('settings.trustAll')} {...input('trustAll', { type: 'checkbox' })} />}
              </Group>
              {needsCurrentPassword(v, settings) && (
                <PasswordInput
                  label={t('settings.currentPassword')}
                  description={t('settings.currentPasswordHint')}
                  required
                  autoComplete="current-password"
                  maxLength={1000}
                  maw={420}
                  mt="md"
                  data-testid="settings-current-password"
                  {...input('currentPassword')}
                />
              )}
            </TitledCard>
            <TitledCard title={t('settings.agent')}>
              <Select
                label={t('settings.periodicity')}
                required
                maw={300}
                data={PROCESS_PERIODICITIES.map((m) => ({ value: String(m), label: t('settings.minutes', { count: m }) }))}
                allowDeselect={false}
                {...input('periodicity')}
              />
              <Checkbox label={t('settings.updatesPaused')} description={t('settings.updatesPausedHint')} mt="md" {...input('updatesPaused', { type: 'checkbox' })} />
            </TitledCard>
            <TitledCard title={t('settings.logs')}>
              <Group align="flex-end" gap="xl">
                <NumberInput label={t('settings.storageDays')} min={0} max={LOG_STORAGE_DAYS_MAX} allowDecimal={false} allowNegative={false} maw={300} {...input('storageDays')} />
                <Checkbox label={t('settings.clearing')} mb={8} {...input('clearing', { type: 'checkbox' })} />
              </Group>
            </TitledCard>
            <TitledCard title={t('settings.history')} hint={t('settings.historyHint')}>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <NumberInput label={t('settings.daysMonths')} min={0} max={HISTORY_MONTHS_MAX} allowDecimal={false} allowNegative={false} {...input('daysMonths')} />
                <NumberInput label={t('settings.eventsMonths')} min={0} max={HISTORY_MONTHS_MAX} allowDecimal={false} allowNegative={false} {...input('eventsMonths')} />
                <NumberInput label={t('settings.runsMonths')} min={0} max={HISTORY_MONTHS_MAX} allowDecimal={false} allowNegative={false} {...input('runsMonths')} />
              </SimpleGrid>
            </TitledCard>
            <TitledCard title={t('settings.alerts')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <NumberInput label={t('settings.alertRepeatHours')} description={t('settings.alertRepeatHint')} min={0} max={ALERT_REPEAT_HOURS_MAX} allowDecimal={false} allowNegative={false} {...input('alertRepeatHours')} />
                <NumberInput label={t('settings.offlineMissedPolls')} description={t('settings.offlineMissedPollsHint')} min={1} max={OFFLINE_MISSED_POLLS_MAX} allowDecimal={false} allowNegative={false} {...input('offlineMissedPolls')} />
              </SimpleGrid>
            </TitledCard>
          </Stack>
        </fieldset>
        <Group>
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} disabled={!canEdit} data-testid="settings-save">
            {t('settings.save')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconMailForward size={16} />}
            disabled={!canEdit || save.isPending}
            onClick={() => setTestOpen(true)}
            data-testid="settings-test-email"
          >
            {t('settings.testEmail')}
          </Button>
          {form.isDirty() && canEdit && <Text size="sm" c="dimmed">{t('settings.unsaved')}</Text>}
        </Group>
        {config.CLOUD && owner && hasGrant('MNU_AGENTS.EDIT') && <CloudMaintenance />}
      </Stack>
      <TestEmailDialog opened={testOpen} defaultTo={me.email} onClose={() => setTestOpen(false)} dirty={form.isDirty()} />
    </form>
    {/* Outside the settings form: a channel's dialog is a form of its own, saved on its own. */}
    {owner && (
      <Box maw={900} mt="md">
        <ChannelsSection canEdit={canEdit} />
      </Box>
    )}
    </>
  );
}

/** Sends a test message with the saved settings to an address of the user's choice. */
function TestEmailDialog({ opened, defaultTo, dirty, onClose }: { opened: boolean; defaultTo: string; dirty: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [to, setTo] = useState(defaultTo);
  const [localError, setLocalError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => sendTestEmail({ to: to.trim() }),
    onSuccess: (r) => {
      notifyMessage(r.message);
      onClose();
    },
  });
  const submit = () => {
    const parsed = testEmailSchema.safeParse({ to });
    setLocalError(parsed.success ? null : t(parsed.error.issues[0].message));
    if (parsed.success) send.mutate();
  };
  const serverError = send.error instanceof ApiError && send.error.body?.details?.length ? send.error.body.details[0].message : null;
  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.testEmail')} data-testid="test-email-dialog">
      <Stack gap="sm">
        {dirty && <Text size="sm" c="dimmed">{t('settings.testUsesSaved')}</Text>}
        <TextInput
          label={t('settings.testTo')}
          required
          data-autofocus
          value={to}
          maxLength={256}
          onChange={(e) => setTo(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), submit())}
          error={localError ?? serverError}
        />
        {send.error && !serverError && (
          <Alert color="red" role="alert" data-testid="test-email-error">
            {errorMessage(send.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('general.cancel')}</Button>
          <Button onClick={submit} loading={send.isPending} data-testid="test-email-send">{t('settings.send')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
