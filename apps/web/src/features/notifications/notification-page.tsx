import { useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Tabs, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { DEVICE_STATUS_CODES } from '@pagewatch/contracts/device-events';
import { COLOR_TYPES, DEVICE_TYPES, PAPER_FORMATS } from '@pagewatch/contracts/reading';
import {
  COUNTER_ATTACHMENT_COLUMNS,
  DEFAULT_NOTIFICATION_TYPE,
  NOTIFICATION_TYPE_CODES,
  NOTIFICATION_TYPES,
  typeHasField,
  type Notification,
  type NotificationTypeCode,
} from '@pagewatch/contracts/notifications';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { focusFirstError, submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { serverFieldErrors } from '../../components/form/server-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { MailLinksWarning } from '../../components/layout/mail-links-warning.tsx';
import { notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useReportTypes } from '../../lib/report-types.ts';
import {
  deleteNotification,
  fetchNotification,
  notificationKeys,
  notificationSaved,
  saveNotification,
  testNotification,
  useChannelChoices,
  useSubscribers,
  useUserLocations,
  type LocationOption,
} from './api/notifications-api.ts';
import { BodyEditor } from './body-editor.tsx';
import { ScheduleControl } from './schedule-control.tsx';
import { emptyValues, formFieldOf, inputOf, switchType, validateNotification, valuesOf, weeklyWithoutDays, type NotificationFormValues } from './notification-form-values.ts';

const isType = (s: string | null): s is NotificationTypeCode => !!s && (NOTIFICATION_TYPE_CODES as readonly string[]).includes(s);

/** `/notification/{id}?type=` (spec sections 2 to 5): a notification's form; an id below 0 (or none) creates one. */
export function NotificationPage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const [params] = useSearchParams();
  const numeric = Number(idParam);
  const isNew = idParam === undefined || !Number.isInteger(numeric) || numeric < 0;
  const id = isNew ? null : numeric;
  const notification = useQuery({ queryKey: notificationKeys.detail(id ?? -1), queryFn: () => fetchNotification(id!), enabled: id !== null });
  const locations = useUserLocations();
  const subscribers = useSubscribers();
  const title = isNew ? t('pages.newItem', { item: t('pages.notification') }) : notification.data?.name || `${t('pages.notification')} ${idParam}`;
  const ready = (isNew || notification.data) && locations.data && subscribers.data;
  const type = params.get('type');

  return (
    <AppPage title={title} breadcrumbs={[{ label: t('nav.notifications'), to: '/notifications' }, { label: title }]}>
      <LoadState error={notification.error ?? locations.error ?? subscribers.error} ready={!!ready}>
        {() => (
          <NotificationForm
            key={`${idParam}-${notification.dataUpdatedAt}`}
            notification={notification.data ?? null}
            initialType={isType(type) ? type : DEFAULT_NOTIFICATION_TYPE}
            reportCode={params.get('report')}
            locations={locations.data!.pageRows}
            subscribers={subscribers.data!.map((s) => ({ value: String(s.id), label: s.email }))}
          />
        )}
      </LoadState>
    </AppPage>
  );
}

type Pending = 'save' | 'delete' | 'test' | null;

function NotificationForm(p: {
  notification: Notification | null;
  initialType: NotificationTypeCode;
  reportCode: string | null;
  locations: LocationOption[];
  subscribers: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const n = p.notification;
  const editable = hasGrant('MNU_NOTIFICATIONS.EDIT') && (n?.isEditable ?? true);
  const [tab, setTab] = useState<string | null>('notification');
  const [confirm, setConfirm] = useState<Pending>(null);
  const [weekdaysError, setWeekdaysError] = useState(false);
  const form = useForm<NotificationFormValues>({
    mode: 'controlled',
    initialValues: n ? valuesOf(n) : emptyValues(p.initialType, p.reportCode),
    validate: (v) => validateNotification(v),
  });
  const input = useTranslatedInput(form);
  const v = form.getValues();
  const def = NOTIFICATION_TYPES[v.type];
  const has = (f: Parameters<typeof typeHasField>[1]) => typeHasField(v.type, f);
  const reports = useReportTypes(v.type === 'REPORT').data ?? [];
  const report = reports.find((r) => r.code === v.reportCode);
  // Subscribers already on the notification stay choosable even when no longer listed.
  const channelChoices = useChannelChoices().data ?? [];
  // The channels the notification has are shown even to one who may not change them.
  const channelData = [...channelChoices, ...(n?.channels ?? []).filter((c) => !channelChoices.some((o) => o.id === c.id))].map((c) => ({ value: String(c.id), label: `${t(`channel.kind.${c.kind}`)}: ${c.name}` }));
  const subscriberData = [...p.subscribers, ...(n?.subscribers ?? []).filter((s) => !p.subscribers.some((o) => o.value === String(s.id))).map((s) => ({ value: String(s.id), label: s.email }))];

  const showServerErrors = (err: unknown) => {
    const fields = serverFieldErrors(err, formFieldOf);
    if (!fields) return;
    form.setErrors(fields);
    if ('subscriberIds' in fields) setTab('subscribers');
  };
  const save = useMutation({
    mutationFn: (values: NotificationFormValues) => saveNotification(n?.id ?? null, inputOf(values)),
    onSuccess: (saved) => {
      notifySuccess(n ? 'updated' : 'created');
      void notificationSaved(queryClient, saved);
      // After a create the screen becomes the saved notification's (spec section 4).
      if (!n) void navigate(`/notification/${saved.id}`, { replace: true });
      else form.resetDirty();
    },
    onError: showServerErrors,
  });
  const remove = useMutation({
    mutationFn: () => deleteNotification(n!.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
      void navigate(-1);
    },
  });
  const test = useMutation({ mutationFn: (id: number) => testNotification(id), onSuccess: () => notifySuccess('testSent') });
  const busy = save.isPending || remove.isPending || test.isPending;
  const disabled = !editable || busy;
  const canTest = v.subscriberIds.length > 0 || v.includeSystemSubscribers;

  const proceed = () => {
    const what = confirm;
    setConfirm(null);
    if (what === 'save') save.mutate(form.getValues());
    if (what === 'delete') remove.mutate();
    // A new or changed notification is saved first, then tested (spec section 4: saving with the test option).
    if (what === 'test' && n && !form.isDirty()) test.mutate(n.id);
    else if (what === 'test') {
      const check = form.validate();
      if (check.hasErrors) return focusFirstError(check.errors);
      if (weeklyWithoutDays(form.getValues())) return setWeekdaysError(true);
      save.mutate(form.getValues(), { onSuccess: (saved) => test.mutate(saved.id) });
    }
  };
  const onValid = (values: NotificationFormValues) => {
    if (weeklyWithoutDays(values)) setWeekdaysError(true);
    else setConfirm('save');
  };

  return (
    <form onSubmit={submitFocusingErrors(form, onValid)} noValidate data-testid="notification-form">
      <Stack gap="md" maw={960}>
        {!editable && (
          <Alert color="yellow" data-testid="read-only">
            {t('notification.insufficientAccessActions')}
          </Alert>
        )}
        <MailLinksWarning />
        <Tabs value={tab} onChange={setTab} keepMounted>
          <Tabs.List>
            <Tabs.Tab value="notification">{t('notification.tabNotification')}</Tabs.Tab>
            <Tabs.Tab value="subscribers">{t('notification.tabSubscribers')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="notification" pt="md">
            <Stack gap="md">
              <Section>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <Select
                    label={t('notification.type')}
                    required
                    allowDeselect={false}
                    disabled={disabled || !!n}
                    data={NOTIFICATION_TYPE_CODES.map((c) => ({ value: c, label: t(`notification.types.${c}`) }))}
                    value={v.type}
                    onChange={(c) => isType(c) && form.setValues(switchType(form.getValues(), c))}
                    data-testid="notification-type"
                  />
                  <TextInput label={t('notification.name')} required disabled={disabled} {...input('name')} />
                </SimpleGrid>
                <Switch label={t('notification.active')} disabled={disabled} {...form.getInputProps('active', { type: 'checkbox' })} />
                <Textarea label={t('notification.description')} disabled={disabled} styles={{ input: { height: 95 } }} {...input('description')} />
                <TextInput label={t('notification.subject')} required disabled={disabled} {...input('subject')} />
                <BodyEditor
                  label={t('notification.body')}
                  required
                  value={v.body}
                  onChange={(html) => form.setFieldValue('body', html)}
                  variables={def.variables}
                  disabled={disabled}
                  error={form.errors.body ? t(String(form.errors.body)) : undefined}
                />
              </Section>
              <Section>
                <MultiSelect
                  label={t('notification.locations')}
                  description={t('notification.locationsHint')}
                  searchable
                  disabled={disabled}
                  data={p.locations.map((l) => ({ value: String(l.id), label: l.name }))}
                  {...input('locationIds')}
                />
                {has('statuses') && (
                  <MultiSelect label={t('notification.statuses')} disabled={disabled} data={DEVICE_STATUS_CODES.map((s) => ({ value: s, label: t(`notification.status.${s}`) }))} {...input('statuses')} />
                )}
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  {has('dim01List') && <MultiSelect label={t('notification.printerTypes')} disabled={disabled} data={DEVICE_TYPES.map((x) => ({ value: x, label: t(`notification.deviceType.${x}`) }))} {...input('dim01List')} />}
                  {has('dim02List') && <MultiSelect label={t('notification.colorTypes')} disabled={disabled} data={COLOR_TYPES.map((x) => ({ value: x, label: t(`notification.colorType.${x}`) }))} {...input('dim02List')} />}
                  {has('dim03List') && <MultiSelect label={t('notification.paperFormats')} disabled={disabled} data={[...PAPER_FORMATS]} {...input('dim03List')} />}
                  {has('threshold') && <NumberInput label={t('notification.threshold')} required min={0} max={100} allowDecimal={false} disabled={disabled} {...input('threshold')} />}
                </SimpleGrid>
                {has('report') && (
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <Select
                      label={t('notification.report')}
                      required
                      disabled={disabled || !!n?.report}
                      data={reports.map((r) => ({ value: r.code, label: r.name }))}
                      nothingFoundMessage={t('notification.noReports')}
                      {...input('reportCode')}
                    />
                    <Select label={t('notification.fileFormat')} required allowDeselect={false} disabled={disabled} data={report ? [...report.formats] : ['CSV']} {...input('fileExtensionCode')} />
                  </SimpleGrid>
                )}
                {has('attachment') && (
                  <TagsInput
                    label={t('notification.attachment')}
                    required
                    disabled={disabled}
                    data={v.type === 'COUNTERS' ? [...COUNTER_ATTACHMENT_COLUMNS] : (report?.columns ?? [])}
                    maxDropdownHeight={260}
                    {...input('attachment')}
                    data-testid="notification-attachment"
                  />
                )}
              </Section>
              <Section>
                <ScheduleControl
                  value={v.schedule}
                  onChange={(s) => form.setFieldValue('schedule', s)}
                  immediate={def.immediate}
                  disabled={disabled}
                  dayError={form.errors['schedule.dayOfMonth'] ? t(String(form.errors['schedule.dayOfMonth'])) : undefined}
                />
              </Section>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="subscribers" pt="md">
            <Section>
              <MultiSelect
                label={t('notification.subscribers')}
                required={v.active && !v.includeSystemSubscribers && !v.channelIds.length}
                searchable
                disabled={disabled}
                data={subscriberData}
                {...input('subscriberIds')}
                data-testid="notification-subscribers"
              />
              <Checkbox label={t('notification.includeSystemSubscribers')} disabled={disabled} {...form.getInputProps('includeSystemSubscribers', { type: 'checkbox' })} />
              {channelData.length > 0 && (
                <MultiSelect
                  label={t('channel.notificationChannels')}
                  description={t('channel.notificationChannelsHint')}
                  disabled={disabled || !channelChoices.length}
                  data={channelData}
                  {...input('channelIds')}
                  data-testid="notification-channels"
                />
              )}
            </Section>
          </Tabs.Panel>
        </Tabs>
        {Object.keys(form.errors).length > 0 && tab === 'notification' && form.errors.subscriberIds && (
          <Text size="sm" c="red">
            {t('notification.subscribersMissing')}
          </Text>
        )}
        <Group gap="sm">
          <Button type="submit" disabled={disabled} loading={save.isPending} title={!editable ? t('notification.insufficientAccessActions') : undefined}>
            {t('notification.save')}
          </Button>
          <Button variant="default" disabled={disabled || !canTest} loading={test.isPending} onClick={() => setConfirm('test')} title={!canTest ? t('notification.testNeedsSubscribers') : undefined}>
            {t('notification.test')}
          </Button>
          {n && (
            <Button color="red" variant="light" disabled={disabled} loading={remove.isPending} onClick={() => setConfirm('delete')}>
              {t('notification.delete')}
            </Button>
          )}
        </Group>
      </Stack>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={t(`notification.confirm.${confirm ?? 'save'}Title`)} centered data-testid="confirm-dialog">
        <Stack>
          <Text size="sm">{t(`notification.confirm.${confirm ?? 'save'}`)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('general.cancel')}
            </Button>
            <Button onClick={proceed} color={confirm === 'delete' ? 'red' : undefined} data-testid="confirm-proceed">
              {t('notification.proceed')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={weekdaysError} onClose={() => setWeekdaysError(false)} title={t('notification.error.title')} centered data-testid="weekdays-error">
        <Stack>
          <Text size="sm">{t('notification.error.weekdays')}</Text>
          <Group justify="flex-end">
            <Button onClick={() => setWeekdaysError(false)}>{t('notification.close')}</Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}

function Section({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}
