import { Anchor, Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Home } from '@pagewatch/contracts/home';
import { UNREAD_RUNS } from '@pagewatch/contracts/agents';
import { DeviceFailureBadge } from '../../components/device-failure-badge.tsx';
import { gridLink } from '../../components/data-grid/grid-storage.ts';
import { DeviceCell } from '../../components/devices/device-link.tsx';
import { CompactRows } from '../../components/small-table.tsx';
import { formatNumber } from '../../lib/format.ts';

type Devices = NonNullable<Home['devices']>;
type Agents = NonNullable<Home['agents']>;

/** "3 hours ago" in the console's language, from the largest unit that fits. */
export function ago(iso: string | null, lang: string, now = Date.now()): string {
  if (!iso) return '';
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86_400], ['hour', 3_600], ['minute', 60]];
  const fmt = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return fmt.format(Math.round(seconds / size), unit);
  return fmt.format(0, 'minute');
}

type ListCardProps = { title: string; count: number; to?: string; testId: string; empty: string };

/** A titled card with a count (a link to the grid behind it, where there is one), and its rows or an empty line. */
export function ListCard(p: ListCardProps & { children: ReactNode }) {
  const badge = (
    <Badge variant="light" color={p.count ? 'red' : 'gray'}>
      {formatNumber(p.count)}
    </Badge>
  );
  return (
    <Card withBorder radius="md" padding="sm" data-testid={p.testId}>
      <Group justify="space-between" mb={4}>
        <Title order={3} size="h5">
          {p.title}
        </Title>
        {p.to ? (
          <Anchor component={Link} to={p.to} size="sm">
            {badge}
          </Anchor>
        ) : (
          badge
        )}
      </Group>
      {p.count ? (
        p.children
      ) : (
        <Text size="sm" c="dimmed">
          {p.empty}
        </Text>
      )}
    </Card>
  );
}

/** A ListCard of rows: a compact table whose cells `children` draws for each row. */
export function RowsCard<Row>({ rows, rowKey, rowTestId, children, ...card }: ListCardProps & ComponentProps<typeof CompactRows<Row>>) {
  return (
    <ListCard {...card}>
      <CompactRows rows={rows} rowKey={rowKey} rowTestId={rowTestId}>
        {children}
      </CompactRows>
    </ListCard>
  );
}

/** An agent's name, opening its page. */
function AgentLink({ id, name }: { id: number; name: string }) {
  return (
    <Anchor component={Link} to={`/agent/${id}`} size="sm">
      {name}
    </Anchor>
  );
}

/** Devices that need a person (jams, errors, open covers), the longest first, with how long. */
export function AttentionList({ attention }: { attention: Devices['attention'] }) {
  const { t, i18n } = useTranslation();
  return (
    <RowsCard
      title={t('home.attention')}
      count={attention.count}
      to={gridLink('/devices', { headerFilters: { attention: [true] } })}
      testId="home-attention"
      empty={t('home.attentionNone')}
      rows={attention.rows}
      rowKey={(r) => r.id}
    >
      {(r) => (
        <>
          <DeviceCell d={r} />
          <Table.Td>
            {r.problems.length ? r.problems.map((p) => t(`devices.errorBit.${p}`, { defaultValue: p })).join(', ') : t(`notification.status.${r.statusCode}`)}
          </Table.Td>
          <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {ago(r.since, i18n.language)}
          </Table.Td>
        </>
      )}
    </RowsCard>
  );
}

/** Agents that stopped reporting: silent for longer than AGENT_SILENT_MINUTES, or never heard from. */
export function SilentAgents({ agents }: { agents: Agents }) {
  const { t, i18n } = useTranslation();
  return (
    <RowsCard title={t('home.silentAgents')} count={agents.silent.length} to="/agents" testId="home-agents" empty={t('home.agentsAllReporting', { count: agents.total })} rows={agents.silent} rowKey={(a) => a.id}>
      {(a) => (
        <>
          <Table.Td>
            <AgentLink id={a.id} name={a.name} />
          </Table.Td>
          <Table.Td>{a.locationName}</Table.Td>
          <Table.Td c="dimmed">{a.lastContactAt ? ago(a.lastContactAt, i18n.language) : t('home.neverReported')}</Table.Td>
        </>
      )}
    </RowsCard>
  );
}

/** Devices of the agents' ranges not read for UNREAD_RUNS runs in a row, with the last reason (issue 44). */
export function NotReadDevices({ agents }: { agents: Agents }) {
  const { t, i18n } = useTranslation();
  return (
    <RowsCard title={t('home.notReadDevices', { count: UNREAD_RUNS })} count={agents.notRead.count} to="/agents" testId="home-not-read" empty={t('home.allDevicesRead')} rows={agents.notRead.rows} rowKey={(d) => `${d.agentId}-${d.ip}`}>
      {(d) => (
        <>
          <Table.Td>{d.ip}</Table.Td>
          <Table.Td>{d.reason ? <DeviceFailureBadge reason={d.reason} whole /> : null}</Table.Td>
          <Table.Td>
            <AgentLink id={d.agentId} name={d.agentName} />
          </Table.Td>
          <Table.Td c="dimmed">{d.lastOkAt ? t('home.notReadSince', { ago: ago(d.lastOkAt, i18n.language) }) : t('home.neverRead')}</Table.Td>
        </>
      )}
    </RowsCard>
  );
}

