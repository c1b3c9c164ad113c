import { Badge, Button, Checkbox, Code, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiTokenInputSchema, type ApiToken } from '@pagewatch/contracts/api-tokens';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { ShownOnceDialog } from '../../components/shown-once-dialog.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { showServerErrors } from '../../components/form/server-errors.ts';
import { notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { apiTokenKeys, createApiToken, fetchApiTokens, revokeApiToken } from './api/api-tokens-api.ts';
import { formatDateTime } from '../../lib/format.ts';

/** The lifetimes offered, in days (the server takes 1 to 366). */
const LIFETIMES = [7, 30, 90, 180, 365];
const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/**
 * `/api-tokens` (issue 42): the signed-in user's personal API tokens for integrations. A new
 * token is shown once, with a copy button; the list shows how to recognise each and revokes it.
 */
export function ApiTokensPage() {
  const { t } = useTranslation();
  const tokens = useQuery({ queryKey: apiTokenKeys.mine, queryFn: fetchApiTokens });
  return (
    <AppPage title={t('nav.apiTokens')}>
      <Stack gap="md" maw={1000}>
        <Text size="sm" c="dimmed">
          {t('apiTokens.intro')}
        </Text>
        <NewTokenForm />
        <LoadState error={tokens.error} ready={!!tokens.data}>
          {() => <TokenList tokens={tokens.data!} />}
        </LoadState>
      </Stack>
    </AppPage>
  );
}

type Values = { name: string; days: string; readOnly: boolean };
const toInput = (v: Values) => ({ name: v.name, expiresInDays: Number(v.days), readOnly: v.readOnly });

function NewTokenForm() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', days: '90', readOnly: false },
    validate: (v) => {
      const parsed = apiTokenInputSchema.safeParse(toInput(v));
      if (parsed.success) return {};
      return Object.fromEntries(parsed.error.issues.map((i) => [i.path[0] === 'expiresInDays' ? 'days' : String(i.path[0]), t(i.message, { defaultValue: i.message })]));
    },
  });
  const create = useMutation({
    mutationFn: (v: Values) => createApiToken(toInput(v)),
    onSuccess: (made) => {
      setShown(made.token);
      form.reset();
      void queryClient.invalidateQueries({ queryKey: apiTokenKeys.mine });
    },
    onError: showServerErrors(form, (field) => (field === 'expiresInDays' ? 'days' : field)),
  });

  return (
    <form onSubmit={submitFocusingErrors(form, (v) => create.mutate(v))} noValidate data-testid="api-token-form">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('apiTokens.new')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('apiTokens.name')} required maxLength={100} disabled={create.isPending} {...form.getInputProps('name')} />
            <Select
              label={t('apiTokens.lifetime')}
              required
              allowDeselect={false}
              disabled={create.isPending}
              data={LIFETIMES.map((d) => ({ value: String(d), label: t('apiTokens.days', { count: d }) }))}
              {...form.getInputProps('days')}
            />
          </SimpleGrid>
          <Checkbox label={t('apiTokens.readOnly')} description={t('apiTokens.readOnlyHint')} disabled={create.isPending} {...form.getInputProps('readOnly', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
              {t('apiTokens.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <ShownOnceDialog
        secret={shown}
        onClose={() => setShown(null)}
        title={t('apiTokens.shownTitle')}
        warning={t('apiTokens.shownOnce')}
        testId="api-token"
        usageLabel={t('apiTokens.usage')}
        usage={`curl -H "Authorization: Bearer ${shown ?? ''}" ${window.location.origin}/api/users/me`}
        copyLabel={t('apiTokens.copy')}
        copiedLabel={t('apiTokens.copied')}
      />
    </form>
  );
}

function TokenList({ tokens }: { tokens: ApiToken[] }) {
  const { t } = useTranslation();
  const revoke = useConfirmedMutation({
    mutationFn: (tk: ApiToken) => revokeApiToken(tk.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void queryClient.invalidateQueries({ queryKey: apiTokenKeys.mine });
    },
  });
  const expired = (tk: ApiToken) => dayjs(tk.expiresAt).isBefore(dayjs());

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('apiTokens.list')}
        </Title>
        <SmallTable
          rows={tokens}
          rowKey={(tk) => tk.id}
          empty={t('apiTokens.none')}
          testId="api-tokens"
          columns={[
            { header: t('apiTokens.name'), cell: (tk) => tk.name },
            { header: t('apiTokens.prefix'), cell: (tk) => <Code>{`${tk.prefix}…`}</Code> },
            { header: t('apiTokens.access'), cell: (tk) => (tk.readOnly ? t('apiTokens.readOnlyShort') : t('apiTokens.fullAccess')) },
            { header: t('apiTokens.created'), cell: (tk) => when(tk.createdAt) },
            {
              header: t('apiTokens.expires'),
              cell: (tk) => (expired(tk) ? <Badge color="gray">{t('apiTokens.expired')}</Badge> : when(tk.expiresAt)),
            },
            { header: t('apiTokens.lastUsed'), cell: (tk) => when(tk.lastUsedAt) },
            {
              width: 120,
              cell: (tk) => (
                <Button size="xs" variant="light" color="red" onClick={() => revoke.ask(tk)}>
                  {t('apiTokens.revoke')}
                </Button>
              ),
            },
          ]}
        />
      </Stack>
      <ConfirmDialog {...revoke.dialog} title={t('apiTokens.revokeTitle')} message={t('apiTokens.revokeMessage', { name: revoke.target?.name ?? '' })} confirmLabel={t('apiTokens.revoke')} />
    </Paper>
  );
}
