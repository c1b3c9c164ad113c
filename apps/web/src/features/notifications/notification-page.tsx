import { useState } from 'react';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import {
  DEFAULT_NOTIFICATION_TYPE,
  NOTIFICATION_TYPE_CODES,
  NOTIFICATION_TYPES,
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
import { FiltersSection, FormDialogs, Section, SubscribersSection } from './notification-form-parts.tsx';
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

/**
 * The form's save, delete and test: a save shows the server's field errors on their fields (a
 * missing subscriber on its tab, `onSubscribersError`), and a create opens the saved notification.
 */
function useNotificationMutations(n: Notification | null, form: UseFormReturnType<NotificationFormValues>, onSubscribersError: () => void) {
  const navigate = useNavigate();
  const showServerErrors = (err: unknown) => {
    const fields = serverFieldErrors(err, formFieldOf);
    if (!fields) return;
    form.setErrors(fields);
    if ('subscriberIds' in fields) onSubscribersError();
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
  return { save, remove, test };
}

function NotificationForm(p: {
  notification: Notification | null;
  initialType: NotificationTypeCode;
  reportCode: string | null;
  locations: LocationOption[];
  subscribers: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
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
  const reports = useReportTypes(v.type === 'REPORT').data ?? [];
  // Subscribers already on the notification stay choosable even when no longer listed.
  const channelChoices = useChannelChoices().data ?? [];
  // The channels the notification has are shown even to one who may not change them.
  const channelData = [...channelChoices, ...(n?.channels ?? []).filter((c) => !channelChoices.some((o) => o.id === c.id))].map((c) => ({ value: String(c.id), label: `${t(`channel.kind.${c.kind}`)}: ${c.name}` }));
  const subscriberData = [...p.subscribers, ...(n?.subscribers ?? []).filter((s) => !p.subscribers.some((o) => o.value === String(s.id))).map((s) => ({ value: String(s.id), label: s.email }))];

  const { save, remove, test } = useNotificationMutations(n, form, () => setTab('subscribers'));
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
              <FiltersSection form={form} disabled={disabled} locations={p.locations} reports={reports} reportLocked={!!n?.report} />
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
            <SubscribersSection form={form} disabled={disabled} subscriberData={subscriberData} channelData={channelData} channelsChoosable={channelChoices.length > 0} />
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
      <FormDialogs confirm={confirm} onCancel={() => setConfirm(null)} onProceed={proceed} weekdaysError={weekdaysError} onWeekdaysClose={() => setWeekdaysError(false)} />
    </form>
  );
}

