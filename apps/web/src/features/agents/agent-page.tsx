import { Anchor, Button, Paper, Select, SimpleGrid, Stack, Switch, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { agentInputSchema, type Agent } from '@pagewatch/contracts/agents';
import { NETWORK_RANGE_TYPE_DEFS } from '@pagewatch/contracts/network-ranges';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useDeleteItem, useSaveItem } from '../../components/form/use-item-mutations.ts';
import { useItemQuery } from '../../components/form/use-item-id.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { LabeledValue as Field } from '../../components/layout/labeled-value.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { ShownOnceDialog } from '../../components/shown-once-dialog.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { queryClient } from '../../lib/query-client.ts';
import {
  agentKeys,
  agentQueryKey,
  createAgent,
  deleteAgent,
  fetchAgent,
  fetchAgentRanges,
  fetchAgentStatus,
  fetchUserLocations,
  regenerateToken,
  setAgentUpdatesPaused,
  updateAgent,
  type LocationOption,
} from './api/agents-api.ts';
import { AgentStatusBadge } from './agent-status-badge.tsx';
import { AgentDevicesStatus } from './agent-devices-status.tsx';
import { formatDateTime } from '../../lib/format.ts';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/** `/agent/{id}` (spec section 2): an agent's form, status, ranges and last runs; an id below 0 creates one. */
export function AgentPage() {
  const { t } = useTranslation();
  const { idParam, isNew, item: agent } = useItemQuery(agentQueryKey, fetchAgent);
  const locations = useQuery({ queryKey: agentKeys.userLocations, queryFn: fetchUserLocations });
  const failed = agent.error ?? locations.error;
  const ready = (isNew || agent.data) && locations.data;

  return (
    <ItemPage kind={t('pages.agent')} list={{ label: t('nav.agents'), to: '/agents' }} isNew={isNew} name={agent.data?.name ?? idParam} error={failed} ready={!!ready}>
      {() => (
        <Stack gap="md" maw={1200}>
          <AgentForm key={idParam} agent={agent.data ?? null} locations={locations.data!.pageRows} />
          {agent.data && <AgentDetails agent={agent.data} />}
        </Stack>
      )}
    </ItemPage>
  );
}

type Values = { name: string; description: string; locationId: string | null };

function AgentForm({ agent, locations }: { agent: Agent | null; locations: LocationOption[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('MNU_AGENTS.EDIT');
  const [token, setToken] = useState<{ token: string; agentId: number } | null>(null);
  const form = useForm<Values>({
    initialValues: {
      name: agent?.name ?? '',
      description: agent?.description ?? '',
      locationId: agent ? String(agent.location.id) : locations.length === 1 ? String(locations[0].id) : null,
    },
    validate: (v) => {
      const parsed = agentInputSchema.safeParse(draftOf(v));
      if (parsed.success) return {};
      return Object.fromEntries(parsed.error.issues.map((i) => [i.path[0] === 'location' ? 'locationId' : String(i.path[0]), t(i.message, { defaultValue: i.message })]));
    },
  });
  // The values before the schema has accepted them (no location chosen: none), and once it has.
  const draftOf = (v: Values) => ({ name: v.name, description: v.description || null, location: v.locationId ? { id: Number(v.locationId) } : undefined });
  const toInput = (v: Values) => agentInputSchema.parse(draftOf(v));

  const save = useSaveItem({
    save: (v: Values) => (agent ? updateAgent(agent.id, toInput(v)) : createAgent(toInput(v))),
    isNew: !agent,
    keyOf: agentQueryKey,
    form,
    fieldOf: (field) => (field === 'location' ? 'locationId' : field),
    then: (saved) => {
      if ('token' in saved && typeof saved.token === 'string') setToken({ token: saved.token, agentId: saved.id });
      else void navigate('/agents');
    },
  });
  const regenerate = useConfirmedMutation({
    mutationFn: () => regenerateToken(agent!.id),
    onSuccess: (r) => setToken({ token: r.token, agentId: r.id }),
  });
  const remove = useDeleteItem({ remove: () => deleteAgent(agent!.id), backTo: '/agents' });
  const busy = save.isPending || remove.mutation.isPending || regenerate.mutation.isPending;
  const confirmText = (key: 'delete' | 'regenerate') => ({
    title: t(`agents.${key}Title`),
    message: t(`agents.${key}Confirm`, { name: agent?.name ?? '' }),
    confirmLabel: t('agents.proceed'),
  });

  return (
    <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate data-testid="agent-form">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('agents.name')} required disabled={!canEdit || busy} {...form.getInputProps('name')} />
            <Select
              label={t('agents.location')}
              required
              searchable
              disabled={!canEdit || busy}
              data={locations.map((l) => ({ value: String(l.id), label: l.name }))}
              {...form.getInputProps('locationId')}
            />
          </SimpleGrid>
          <Textarea label={t('agents.description')} autosize minRows={2} disabled={!canEdit || busy} {...form.getInputProps('description')} />
          <FormActions area="agents" canSave={canEdit} saving={save.isPending} busy={busy} cancelTo="/agents" onDelete={agent && canEdit ? () => remove.ask() : undefined}>
            {agent && canEdit && (
              <Button variant="light" leftSection={<IconKey size={16} />} onClick={() => regenerate.ask()} disabled={busy}>
                {t('agents.regenerateToken')}
              </Button>
            )}
          </FormActions>
        </Stack>
      </Paper>

      <ConfirmDialog {...remove.dialog} {...confirmText('delete')} />
      <ConfirmDialog {...regenerate.dialog} {...confirmText('regenerate')} color="blue" />

      <ShownOnceDialog
        secret={token?.token ?? null}
        onClose={() => {
          const agentId = token?.agentId;
          setToken(null);
          if (!agent && agentId) void navigate(`/agent/${agentId}`, { replace: true });
        }}
        title={t('agents.tokenTitle')}
        warning={t('agents.tokenOnce')}
        testId="agent-token"
        usageLabel={t('agents.tokenUsage')}
        usage={`npm run agent -- run --server ${window.location.origin} --token ${token?.token ?? ''}`}
        copyLabel={t('agents.copy')}
        copiedLabel={t('agents.copied')}
      />
    </form>
  );
}

/** Pauses or resumes this agent's updates (issue 44); read-only without the agents' edit grant. */
function AgentUpdatesSwitch({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const { hasGrant } = useAuth();
  const toggle = useMutation({
    mutationFn: (paused: boolean) => setAgentUpdatesPaused(agent.id, paused),
    onSuccess: (saved) => queryClient.setQueryData(agentQueryKey(saved.id), saved),
  });
  return (
    <Switch
      label={t('agents.pauseUpdates')}
      checked={toggle.isPending ? toggle.variables : agent.updatesPaused}
      disabled={!hasGrant('MNU_AGENTS.EDIT') || toggle.isPending}
      onChange={(e) => toggle.mutate(e.currentTarget.checked)}
      data-testid="agent-updates-paused"
    />
  );
}

function AgentDetails({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: agentKeys.status(agent.id), queryFn: () => fetchAgentStatus(agent.id), refetchInterval: 10_000 });
  const ranges = useQuery({ queryKey: agentKeys.ranges(agent.id), queryFn: () => fetchAgentRanges(agent.id) });
  const s = status.data;
  return (
    <>
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Field label={t('agents.statusLabel')}>
            <AgentStatusBadge status={s?.status ?? agent.status} updateRequired={s?.updateRequired ?? agent.updateRequired} />
            {s?.statusMessage && (
              <Text size="xs" c="dimmed">
                {s.statusMessage}
              </Text>
            )}
          </Field>
          <Field label={t('agents.lastContact')}>{when(s?.lastContactAt ?? agent.lastContactAt)}</Field>
          <Field label={t('agents.version')}>
            {agent.version ?? '—'}
            {s?.updatePending && (
              <Text size="xs" c="orange">
                {t('agents.updatePending')}
              </Text>
            )}
          </Field>
          <Field label={t('agents.updatesPaused')}>
            <AgentUpdatesSwitch agent={agent} />
            {agent.updateRefused && (
              <Text size="xs" c="red">
                {t('agents.update.refusedBecause', { version: agent.updateRefused.version, reason: agent.updateRefused.reason })}
              </Text>
            )}
          </Field>
          <Field label={t('agents.hostname')}>{agent.hostname ?? '—'}</Field>
          <Field label={t('agents.platform')}>{agent.platform ?? '—'}</Field>
          <Field label={t('agents.deviceCount')}>{agent.deviceCount}</Field>
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md">
        <Title order={5} mb="xs">
          {t('agents.ranges')}
        </Title>
        {ranges.data?.pageRows.length ? (
          <Table striped withTableBorder={false} data-testid="agent-ranges">
            <Table.Tbody>
              {ranges.data.pageRows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/network/${r.id}`}>
                      {r.name || `#${r.id}`}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{t(NETWORK_RANGE_TYPE_DEFS[r.type].labelKey)}</Table.Td>
                  <Table.Td>{r.type === 'RANGE' ? `${r.from} – ${r.to}` : [r.address, r.mask].filter(Boolean).join(' / ')}</Table.Td>
                  <Table.Td>{r.port}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            {t('agents.noRanges')}{' '}
            <Anchor component={Link} to={`/network/-1?agent=${agent.id}`}>
              {t('agents.addRange')}
            </Anchor>
          </Text>
        )}
      </Paper>
      <AgentDevicesStatus agentId={agent.id} />
      <Paper withBorder p="md">
        <Title order={5} mb="xs">
          {t('agents.runs')}
        </Title>
        <SmallTable
          testId="agent-runs"
          rows={s?.runs ?? []}
          rowKey={(r) => r.runId}
          empty={t('agents.noRuns')}
          columns={[
            {
              header: t('agents.runStarted'),
              cell: (r) => (
                <Anchor component={Link} to={`/log/${r.logId}`}>
                  {when(r.startedAt)}
                </Anchor>
              ),
            },
            { header: t('agents.runDuration'), cell: (r) => (r.durationMs === null ? t('agents.runActive') : t('agents.seconds', { value: (r.durationMs / 1000).toFixed(3) })) },
            {
              header: t('agents.runResult'),
              // The server renders the run's log message in the console's language.
              cell: (r) => (
                <Text size="sm" c={r.logLevel === 'E' ? 'red' : r.logLevel === 'W' ? 'orange' : undefined}>
                  {r.message}
                </Text>
              ),
            },
          ]}
        />
      </Paper>
    </>
  );
}
