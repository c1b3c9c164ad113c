import type { ReactNode } from 'react';
import { Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Paper, Select, SimpleGrid, Stack, TagsInput, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DEVICE_STATUS_CODES } from '@pagewatch/contracts/device-events';
import { COLOR_TYPES, DEVICE_TYPES, PAPER_FORMATS } from '@pagewatch/contracts/reading';
import { COUNTER_ATTACHMENT_COLUMNS, typeHasField } from '@pagewatch/contracts/notifications';
import type { ReportType } from '@pagewatch/contracts/reports';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import type { LocationOption } from './api/notifications-api.ts';
import type { NotificationFormValues } from './notification-form-values.ts';
import { NoticeDialog } from '../../components/notice-dialog.tsx';

/** The notification form's parts (notification-page.tsx): its filters, its subscribers, its dialogs. */

type Form = UseFormReturnType<NotificationFormValues>;
type Choice = { value: string; label: string };

export function Section({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}

/** Which devices and events the notification covers: locations, statuses, device kinds, threshold, and a report's or counters' file. */
export function FiltersSection({ form, disabled, locations, reports, reportLocked }: {
  form: Form;
  disabled: boolean;
  locations: LocationOption[];
  reports: ReportType[];
  /** A saved report notification keeps its report. */
  reportLocked: boolean;
}) {
  const { t } = useTranslation();
  const input = useTranslatedInput(form);
  const v = form.getValues();
  const has = (f: Parameters<typeof typeHasField>[1]) => typeHasField(v.type, f);
  const report = reports.find((r) => r.code === v.reportCode);
  return (
            <Section>
              <MultiSelect
                label={t('notification.locations')}
                description={t('notification.locationsHint')}
                searchable
                disabled={disabled}
                data={locations.map((l) => ({ value: String(l.id), label: l.name }))}
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
                    disabled={disabled || reportLocked}
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
  );
}

/** Who hears of it: the subscribers, the system's, and the channels. */
export function SubscribersSection({ form, disabled, subscriberData, channelData, channelsChoosable }: {
  form: Form;
  disabled: boolean;
  subscriberData: Choice[];
  channelData: Choice[];
  /** Whether the user may choose channels (the notification's own are shown anyway). */
  channelsChoosable: boolean;
}) {
  const { t } = useTranslation();
  const input = useTranslatedInput(form);
  const v = form.getValues();
  return (
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
          disabled={disabled || !channelsChoosable}
          data={channelData}
          {...input('channelIds')}
          data-testid="notification-channels"
        />
      )}
    </Section>
  );
}

/** The confirmation of a save, delete or test, and the error of a weekly schedule without days. */
export function FormDialogs({ confirm, onCancel, onProceed, weekdaysError, onWeekdaysClose }: {
  confirm: 'save' | 'delete' | 'test' | null;
  onCancel: () => void;
  onProceed: () => void;
  weekdaysError: boolean;
  onWeekdaysClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
    <Modal opened={confirm !== null} onClose={onCancel} title={t(`notification.confirm.${confirm ?? 'save'}Title`)} centered data-testid="confirm-dialog">
      <Stack>
        <Text size="sm">{t(`notification.confirm.${confirm ?? 'save'}`)}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('general.cancel')}
          </Button>
          <Button onClick={onProceed} color={confirm === 'delete' ? 'red' : undefined} data-testid="confirm-proceed">
            {t('notification.proceed')}
          </Button>
        </Group>
      </Stack>
    </Modal>
    <NoticeDialog opened={weekdaysError} onClose={onWeekdaysClose} title={t('notification.error.title')} message={t('notification.error.weekdays')} closeLabel={t('notification.close')} testId="weekdays-error" />
    </>
  );
}
