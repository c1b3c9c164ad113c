import { Alert, Anchor, Button, Checkbox, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { QUEUE_TYPE_DEFS, QUEUE_TYPES, queueJobsList, type Queue, type QueueJobRow } from '@pagewatch/contracts/queues';
import type { AgentListRow } from '@pagewatch/contracts/agents';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormCard } from '../../components/form/form-card.tsx';
import { SecretInput } from '../../components/form/secret-input.tsx';
import { useDeleteItem, useSaveInput } from '../../components/form/use-item-mutations.ts';
import { useItemQuery } from '../../components/form/use-item-id.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { LabeledValue as Field } from '../../components/layout/labeled-value.tsx';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { deleteQueue, fetchAgents, fetchQueue, queueKeys, queueQueryKey, resetQueue, saveQueue } from './api/queues-api.ts';
import { emptyQueue, formFieldOf, inputOf, validateQueue, valuesOf, type QueueFormValues } from './queue-form-values.ts';
import { queueJobsColumns } from './queues-columns.tsx';
import { QueueStatusBadge } from './queue-status-badge.tsx';
import { formatDateTime } from '../../lib/format.ts';

/** `/queue/{id}` (spec section 2): a print queue with tabs queue (its form and state) and jobs; an id below 0 creates one. */
export function QueuePage() {
  const { t } = useTranslation();
  const { idParam, isNew, item: queue } = useItemQuery(queueQueryKey, fetchQueue);
  const agents = useQuery({ queryKey: queueKeys.agentOptions, queryFn: fetchAgents });
  const ready = (isNew || queue.data) && agents.data;

  return (
    <ItemPage
      kind={t('pages.queue')}
      list={{ label: t('nav.queues'), to: '/queues' }}
      isNew={isNew}
      name={queue.data ? `${queue.data.host}${queue.data.url ?? ''}` : idParam}
      error={queue.error ?? agents.error}
      ready={!!ready}
    >
      {() => (
        <Tabs defaultValue="queue" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="queue">{t('queues.tabs.queue')}</Tabs.Tab>
            <Tabs.Tab value="jobs" disabled={isNew}>{t('queues.tabs.jobs')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="queue">
            <Stack gap="md" maw={900}>
              {queue.data && <QueueState queue={queue.data} />}
              <QueueForm key={idParam} queue={queue.data ?? null} agents={agents.data!.pageRows} />
            </Stack>
          </Tabs.Panel>
          {queue.data && (
            <Tabs.Panel value="jobs">
              <QueueJobs queueId={queue.data.id} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </ItemPage>
  );
}

/** What the agent last made of the queue, and the reset that makes it read every job again. */
function QueueState({ queue }: { queue: Queue }) {
  const { t } = useTranslation();
  const { hasGrant } = useAuth();
  const reset = useConfirmedMutation({
    mutationFn: () => resetQueue(queue.id),
    onSuccess: (saved) => {
      notifySuccess('updated');
      queryClient.setQueryData(queueQueryKey(saved.id), saved);
    },
  });
  return (
    <Paper withBorder p="md" data-testid="queue-state">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Field label={t('queues.statusLabel')}><QueueStatusBadge status={queue.status} /></Field>
        <Field label={t('queues.lastReadAt')}>{queue.lastReadAt ? formatDateTime(queue.lastReadAt) : '—'}</Field>
        <Field label={t('queues.jobCount')}>{queue.jobCount}</Field>
        <Field label={t('queues.lastJobId')}>{queue.lastJobId ?? '—'}</Field>
        <Field label={t('queues.printerAddress')}>{queue.printerAddress ?? '—'}</Field>
        <Field label={t('queues.device')}>
          {queue.device ? <Anchor component={Link} to={`/device/${queue.device.id}`}>{queue.device.serialNumber ?? queue.device.ip}</Anchor> : t('queues.noDevice')}
        </Field>
      </SimpleGrid>
      {queue.statusMessage && <Alert color="red" mt="sm" data-testid="queue-status-message">{queue.statusMessage}</Alert>}
      {hasGrant('MNU_QUEUES.EDIT') && (
        <Group mt="sm">
          <Button variant="light" color="orange" size="xs" onClick={() => reset.ask()}>{t('queues.reset')}</Button>
        </Group>
      )}
      <ConfirmDialog {...reset.dialog} title={t('queues.resetTitle')} message={t('queues.resetConfirm')} confirmLabel={t('queues.proceed')} color="orange" />
    </Paper>
  );
}

/** The queue's jobs: the jobs list filtered to the queue. */
function QueueJobs({ queueId }: { queueId: number }) {
  const filter = useMemo((): FilterExpression => ['queueId', '=', queueId], [queueId]);
  return <DataGrid<QueueJobRow> gridKey="gridQueueJobs" list={queueJobsList} columns={queueJobsColumns} baseFilter={filter} getRowId={(r) => r.id} height={520} />;
}

function QueueForm({ queue, agents }: { queue: Queue | null; agents: AgentListRow[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('MNU_QUEUES.EDIT');
  const form = useForm<QueueFormValues>({
    initialValues: queue ? valuesOf(queue) : emptyQueue(agents.length === 1 ? String(agents[0].id) : null),
    validate: (v) => Object.fromEntries(Object.entries(validateQueue(v, queue)).map(([k, key]) => [k, t(key, { defaultValue: key })])),
  });
  const v = form.getValues();
  const fields = QUEUE_TYPE_DEFS[v.type].fields;
  const save = useSaveInput(queue?.id ?? null, { save: saveQueue, inputOf, keyOf: queueQueryKey, form, fieldOf: formFieldOf, then: (saved) => void navigate(`/queues?highlight=${saved.id}`) });
  const remove = useDeleteItem({ remove: () => deleteQueue(queue!.id), backTo: '/queues' });
  const busy = save.isPending || remove.mutation.isPending;
  const secret = (field: 'password' | 'token', isSet: boolean | undefined, clear: 'clearPassword' | 'clearToken') => (
    <Stack gap={4}>
      <SecretInput
        label={t(`queues.${field}`)}
        isSet={isSet}
        hints={{ stored: t('queues.secretStored'), notSet: t('queues.secretNotSet') }}
        data-testid={`secret-${field}`}
        {...form.getInputProps(field)}
      />
      {isSet && <Checkbox size="xs" label={t('queues.clearSecret')} {...form.getInputProps(clear, { type: 'checkbox' })} />}
    </Stack>
  );

  return (
    <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate data-testid="queue-form">
      <Stack gap="md">
        <FormCard disabled={!canEdit || busy}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select label={t('queues.typeLabel')} required allowDeselect={false} data={QUEUE_TYPES.map((x) => ({ value: x, label: t(QUEUE_TYPE_DEFS[x].labelKey) }))} {...form.getInputProps('type')} />
            <Select label={t('queues.agent')} required searchable data={agents.map((a) => ({ value: String(a.id), label: a.name }))} {...form.getInputProps('agentId')} />
          </SimpleGrid>
          <Text size="xs" c="dimmed">{t(`queues.typeHint.${v.type}`)}</Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput label={t('queues.host')} required placeholder="cups.example.local" {...form.getInputProps('host')} />
            <NumberInput label={t('queues.port')} required min={1} max={65535} clampBehavior="none" allowDecimal={false} {...form.getInputProps('port')} />
            {fields.includes('url') && <TextInput label={t('queues.url')} placeholder="/printers/office" {...form.getInputProps('url')} />}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {fields.includes('username') && <TextInput label={t('queues.username')} autoComplete="off" {...form.getInputProps('username')} />}
            {fields.includes('password') && secret('password', queue?.passwordSet, 'clearPassword')}
            {fields.includes('token') && secret('token', queue?.tokenSet, 'clearToken')}
          </SimpleGrid>
        </FormCard>
        <FormActions area="queues" canSave={canEdit} saving={save.isPending} busy={busy} cancelTo="/queues" onDelete={queue && canEdit ? () => remove.ask() : undefined} />
      </Stack>
      <ConfirmDialog {...remove.dialog} title={t('queues.deleteTitle')} message={t('queues.deleteConfirm')} confirmLabel={t('queues.proceed')} />
    </form>
  );
}
