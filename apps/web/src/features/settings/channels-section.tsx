import { useState } from 'react';
import { ActionIcon, Badge, Button, Checkbox, Group, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CHANNEL_KIND_FIELDS, CHANNEL_KINDS, channelInputSchema, type Channel, type ChannelKind } from '@pagewatch/contracts/notification-channels';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { SecretInput } from '../../components/form/secret-input.tsx';
import { showServerErrors } from '../../components/form/server-errors.ts';
import { notifyMessage, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { CHANNELS_ALL_KEY, CHANNELS_QUERY_KEY, deleteChannel, fetchChannels, saveChannel, testChannel } from './api/channels-api.ts';

type Values = { kind: ChannelKind; name: string; target: string; secret: string; enabled: boolean; allowInternal: boolean };

const valuesOf = (c: Channel | null): Values =>
  c ? { kind: c.kind, name: c.name, target: c.target ?? '', secret: '', enabled: c.enabled, allowInternal: c.allowInternal } : { kind: 'WEBHOOK', name: '', target: '', secret: '', enabled: true, allowInternal: false };
// An empty secret keeps the stored one (write-only, as the SMTP password).
const inputOf = (v: Values) => ({ kind: v.kind, name: v.name.trim(), target: CHANNEL_KIND_FIELDS[v.kind].target ? v.target.trim() : null, secret: v.secret.trim() || null, enabled: v.enabled, allowInternal: v.allowInternal });

/** The settings screen's notification channels (issue 42): webhook, Slack, Teams, Telegram; each with a Test button. */
export function ChannelsSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const channels = useQuery({ queryKey: CHANNELS_QUERY_KEY, queryFn: fetchChannels });
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  // Both the settings' list and the notification form's choices.
  const refresh = () => queryClient.invalidateQueries({ queryKey: CHANNELS_ALL_KEY });
  const test = useMutation({ mutationFn: (id: number) => testChannel(id), onSuccess: (r) => notifyMessage(r.message) });
  const remove = useConfirmedMutation({
    mutationFn: (c: Channel) => deleteChannel(c.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void refresh();
    },
  });
  return (
    <Paper withBorder p="md" data-testid="settings-channels">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">{t('channel.title')}</Title>
        <Button size="xs" variant="default" leftSection={<IconPlus size={14} />} disabled={!canEdit} onClick={() => setEditing('new')} data-testid="channel-add">
          {t('channel.add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">{t('channel.hint')}</Text>
      <SmallTable
        testId="channels-table"
        rows={channels.data ?? []}
        rowKey={(c) => c.id}
        loading={channels.isLoading}
        empty={t('channel.none')}
        columns={[
          { header: t('channel.name'), cell: (c) => c.name },
          { header: t('channel.kindLabel'), cell: (c) => t(`channel.kind.${c.kind}`) },
          {
            header: t('channel.state'),
            cell: (c) => <Badge color={c.enabled ? 'green' : 'gray'} variant="light">{t(c.enabled ? 'channel.enabled' : 'channel.disabled')}</Badge>,
          },
          {
            cell: (c) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button size="compact-xs" variant="default" leftSection={<IconSend size={12} />} disabled={!canEdit} loading={test.isPending && test.variables === c.id} onClick={() => test.mutate(c.id)}>
                  {t('channel.test')}
                </Button>
                <ActionIcon variant="subtle" aria-label={t('channel.edit')} disabled={!canEdit} onClick={() => setEditing(c)}><IconPencil size={16} /></ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={t('channel.delete')} disabled={!canEdit} onClick={() => remove.ask(c)}><IconTrash size={16} /></ActionIcon>
              </Group>
            ),
          },
        ]}
      />
      {editing && <ChannelDialog channel={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      <ConfirmDialog {...remove.dialog} title={t('channel.delete')} message={t('channel.deleteConfirm', { name: remove.target?.name ?? '' })} confirmLabel={t('channel.delete')} />
    </Paper>
  );
}

/** A channel's form: what its kind needs, the secret write-only. */
function ChannelDialog({ channel, onClose, onSaved }: { channel: Channel | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: valuesOf(channel),
    validate: (v) => {
      const errors: Record<string, string> = {};
      for (const issue of channelInputSchema.safeParse(inputOf(v)).error?.issues ?? []) errors[String(issue.path[0])] ??= t(issue.message);
      if (CHANNEL_KIND_FIELDS[v.kind].secretRequired && !channel?.secretSet && !v.secret.trim()) errors.secret ??= t('general.mandatory');
      // A webhook moved to a new address gets a new signing key (the server refuses the old one too).
      const moved = channel && CHANNEL_KIND_FIELDS[v.kind].secret === 'key' && v.target.trim() !== (channel.target ?? '');
      if (moved && !v.secret.trim()) errors.secret ??= t('channel.newTargetNewKey');
      return errors;
    },
  });
  const v = form.getValues();
  const f = CHANNEL_KIND_FIELDS[v.kind];
  const save = useMutation({
    mutationFn: (values: Values) => saveChannel(channel?.id ?? null, inputOf(values)),
    onSuccess: () => {
      notifySuccess(channel ? 'updated' : 'created');
      onSaved();
      onClose();
    },
    onError: showServerErrors(form),
  });
  return (
    <Modal opened onClose={onClose} title={channel ? channel.name : t('channel.add')} data-testid="channel-dialog">
      <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Select
            label={t('channel.kindLabel')}
            required
            disabled={!!channel}
            allowDeselect={false}
            data={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`channel.kind.${k}`) }))}
            {...form.getInputProps('kind')}
          />
          <TextInput label={t('channel.name')} required maxLength={100} data-autofocus {...form.getInputProps('name')} />
          {f.target && (
            <TextInput
              label={t(f.target === 'url' ? 'channel.url' : 'channel.chat')}
              required
              maxLength={1000}
              placeholder={f.target === 'url' ? 'https://example.com/pagewatch' : '-1001234567890'}
              {...form.getInputProps('target')}
            />
          )}
          <SecretInput
            label={t(`channel.secret.${f.secret}`)}
            isSet={channel?.secretSet}
            hints={{ stored: t('settings.passwordStored'), notSet: t('settings.passwordNotSet'), keep: t('channel.secretKeep') }}
            description={t(`channel.secretHint.${f.secret}`)}
            required={!channel?.secretSet}
            maxLength={1000}
            {...form.getInputProps('secret')}
          />
          <Checkbox label={t('channel.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Checkbox label={t('channel.allowInternal')} description={t('channel.allowInternalHint')} {...form.getInputProps('allowInternal', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('general.cancel')}</Button>
            <Button type="submit" loading={save.isPending} data-testid="channel-save">{t('settings.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
