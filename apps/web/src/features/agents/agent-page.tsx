import { Anchor, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { agentInputSchema, type Agent } from '@pagewatch/contracts/agents';
import { NETWORK_RANGE_TYPE_DEFS } from '@pagewatch/contracts/network-ranges';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { ShownOnceDialog } from '../../components/shown-once-dialog.tsx';
import { DATE_FORMAT } from '../../components/data-grid/grid-cell.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { ApiError } from '../../lib/api.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifySuccess } from '../../lib/errors.ts';
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
  updateAgent,
  type LocationOption,
} from './api/agents-api.ts';
import { AgentStatusBadge } from './agent-status-badge.tsx';

const when = (iso: string | null) => (iso ? dayjs(iso).format(DATE_FORMAT) : '—');

/** `/agent/{id}` (spec section 2): an agent's form, status, ranges and last runs; an id below 0 creates one. */
export function AgentPage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const numeric = Number(idParam);
  const isNew = idParam === undefined || !Number.isInteger(numeric) || numeric < 0;
  const id = isNew ? null : numeric;
  const agent = useQuery({ queryKey: agentQueryKey(id ?? -1), queryFn: () => fetchAgent(id!), enabled: id !== null });
  const locations = useQuery({ queryKey: agentKeys.userLocations, queryFn: fetchUserLocations });
  const title = isNew ? t('pages.newItem', { item: t('pages.agent') }) : `${t('pages.agent')}: ${agent.data?.name ?? idParam}`;
  const failed = agent.error ?? locations.error;
  const ready = (isNew || agent.data) && locations.data;

  return (
    <AppPage title={title} breadcrumbs={[{ label: t('nav.agents'), to: '/agents' }, { label: title }]}>
      <LoadState error={failed} ready={!!ready}>
        {() => (
          <Stack gap="md" maw={1000}>
            <AgentForm key={idParam} agent={agent.data ?? null} locations={locations.data!.pageRows} />
            {agent.data && <AgentDetails agent={agent.data} />}
          </Stack>
        )}
      </LoadState>
    </AppPage>
  );
}

type Values = { name: string; description: string; locationId: string | null };

function AgentForm({ agent, locations }: { agent: Agent | null; locations: LocationOption[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('MNU_AGENTS.EDIT');
  const [token, setToken] = useState<{ token: string; agentId: number } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'regenerate' | null>(null);
  const form = useForm<Values>({
    initialValues: {
      name: agent?.name ?? '',
      description: agent?.description ?? '',
      locationId: agent ? String(agent.location.id) : locations.length === 1 ? String(locations[0].id) : null,
    },
    validate: (v) => {
      const parsed = agentInputSchema.safeParse(toInput(v));
      if (parsed.success) return {};
      return Object.fromEntries(parsed.error.issues.map((i) => [i.path[0] === 'location' ? 'locationId' : String(i.path[0]), t(i.message, { defaultValue: i.message })]));
    },
  });
  const toInput = (v: Values) => ({ name: v.name, description: v.description || null, location: v.locationId ? { id: Number(v.locationId) } : (undefined as unknown as { id: number }) });

  const save = useMutation({
    mutationFn: (v: Values) => (agent ? updateAgent(agent.id, toInput(v)) : createAgent(toInput(v))),
    onSuccess: (saved) => {
      notifySuccess(agent ? 'updated' : 'created');
      queryClient.setQueryData(agentQueryKey(saved.id), saved);
      if ('token' in saved && typeof saved.token === 'string') setToken({ token: saved.token, agentId: saved.id });
      else void navigate('/agents');
    },
    onError: (err) => {
      if (err instanceof ApiError && err.body?.details?.length) {
        form.setErrors(Object.fromEntries(err.body.details.map((d) => [d.field === 'location' ? 'locationId' : d.field, d.message])));
      }
    },
  });
  const regenerate = useMutation({
    mutationFn: () => regenerateToken(agent!.id),
    onSuccess: (r) => setToken({ token: r.token, agentId: r.id }),
    onSettled: () => setConfirm(null),
  });
  const remove = useMutation({
    mutationFn: () => deleteAgent(agent!.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void navigate('/agents');
    },
    onSettled: () => setConfirm(null),
  });
  const busy = save.isPending || remove.isPending || regenerate.isPending;

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
          <Group gap="sm">
            <Button type="submit" disabled={!canEdit} loading={save.isPending}>
              {t('agents.save')}
            </Button>
            <Button variant="default" onClick={() => void navigate('/agents')} disabled={busy}>
              {t('agents.cancel')}
            </Button>
            {agent && canEdit && (
              <>
                <Button variant="light" leftSection={<IconKey size={16} />} onClick={() => setConfirm('regenerate')} disabled={busy}>
                  {t('agents.regenerateToken')}
                </Button>
                <Button color="red" variant="light" onClick={() => setConfirm('delete')} disabled={busy}>
                  {t('agents.delete')}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </Paper>

      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={t(confirm === 'delete' ? 'agents.deleteTitle' : 'agents.regenerateTitle')}>
        <Stack>
          <Text size="sm">{t(confirm === 'delete' ? 'agents.deleteConfirm' : 'agents.regenerateConfirm', { name: agent?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('agents.cancel')}
            </Button>
            <Button color={confirm === 'delete' ? 'red' : 'blue'} loading={remove.isPending || regenerate.isPending} onClick={() => (confirm === 'delete' ? remove.mutate() : regenerate.mutate())}>
              {t('agents.proceed')}
            </Button>
          </Group>
        </Stack>
      </Modal>

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
            <AgentStatusBadge status={s?.status ?? agent.status} />
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

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}
