import { useEffect } from 'react';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconNetwork } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Home } from '@pagewatch/contracts/home';
import { METER_FLAG_HOME_DAYS } from '@pagewatch/contracts/meter-flags';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { gridLink } from '../../components/data-grid/grid-storage.ts';
import { IdentityPairs } from '../../components/devices/identity-pairs.tsx';
import { DeviceLink } from '../../components/devices/device-link.tsx';
import { ForecastAccuracyCard } from '../../components/consumables/forecast-accuracy-card.tsx';
import { useCurrentUser, useHasGrant } from '../../lib/auth-context.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { subscribeDeviceEvents } from '../../lib/ws.ts';
import { homeKey, fetchHome } from './api/home-api.ts';
import { HomeFigures } from './home-figures.tsx';
import { AttentionList, ListCard, NotReadDevices, SilentAgents } from './home-lists.tsx';
import { HomePages } from './home-pages.tsx';
import { HomeSections } from './home-sections.tsx';
import { OpenAlerts } from './home-alerts.tsx';
import { formatTime } from '../../lib/format.ts';

/** Device events come in bursts (a poll of a range); home asks again once a burst settles. */
const EVENT_SETTLE_MS = 1_000;
/** While the server computes newer figures, home asks again this often. */
const PENDING_MS = 1_000;
/** Without events, home still follows what changes by itself (agents falling silent). */
const REFRESH_MS = 60_000;

/** Home follows device events live: one refetch per burst of events. */
function useLiveHome() {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribeDeviceEvents(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: homeKey }), EVENT_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, []);
}

/** A fresh install: no devices yet. Says how the first ones arrive. */
function FirstSteps({ agents }: { agents: Home['agents'] }) {
  const { t } = useTranslation();
  const canAdd = useHasGrant('MNU_NETWORK_RANGES.EDIT');
  return (
    <Alert variant="light" color="blue" icon={<IconNetwork />} title={t('home.emptyTitle')} data-testid="home-empty">
      <Stack gap="xs">
        <Text size="sm">{agents && agents.ranges === 0 ? t('home.emptyNoRanges') : t('home.emptyWaiting')}</Text>
        {canAdd ? (
          <Group>
            <Button component={Link} to="/network/-1" size="xs">
              {t('home.addRange')}
            </Button>
            <Anchor component={Link} to="/agents" size="sm">
              {t('home.seeAgents')}
            </Anchor>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('home.askAdmin')}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

function Quality({ devices }: { devices: NonNullable<Home['devices']> }) {
  const { t } = useTranslation();
  const q = devices.quality;
  const refresh = () => queryClient.invalidateQueries({ queryKey: homeKey });
  const flags = q.meterFlags;
  const count = q.identity.length + q.noProfile + q.counterBackwards + q.sharedSerials.length + flags.devices;
  return (
    <ListCard title={t('home.quality')} count={count} to="/devices" testId="home-quality" empty={t('home.qualityNone')}>
      <Stack gap={6}>
        {q.noProfile ? (
          <Anchor component={Link} to={gridLink('/devices', { headerFilters: { unknownModel: [true] } })} size="sm" data-home-figure="unknownModel">
            {t('home.unknownModels', { count: q.noProfile })}
          </Anchor>
        ) : null}
        {q.counterBackwards ? (
          <Anchor component={Link} to={gridLink('/devices', { headerFilters: { counterBackwards: [true] } })} size="sm" data-home-figure="counterBackwards">
            {t('home.countersBackwards', { count: q.counterBackwards })}
          </Anchor>
        ) : null}
        {flags.devices ? (
          <Text size="sm" data-home-figure="meterFlags">
            {t('home.meterFlags', { days: METER_FLAG_HOME_DAYS, count: flags.devices, jump: flags.byKind.JUMP, backwards: flags.byKind.BACKWARDS, split: flags.byKind.SPLIT })}
          </Text>
        ) : null}
        {flags.rows.map((d) => (
          <Text size="sm" key={`flag-${d.id}`} data-testid="meter-flag-device">
            <DeviceLink d={d} /> {d.kinds.map((k) => t(`home.meterFlagKind.${k}`)).join('; ')}
          </Text>
        ))}
        {q.sharedSerials.map((f) => (
          <Text size="sm" key={f.device.id} data-testid="shared-serial">
            <DeviceLink d={f.device} /> {t('home.sharedSerial', { addresses: f.addresses.join(', ') })}
          </Text>
        ))}
        {q.identity.length ? (
          <>
            <Text size="sm">{t('home.identityPairs', { count: q.identity.length })}</Text>
            <IdentityPairs pairs={q.identity} onMerged={refresh} onDismissed={refresh} />
          </>
        ) : null}
      </Stack>
    </ListCard>
  );
}

/**
 * `/home`: what needs the user today over their locations. Devices by state and supplies running
 * out, each linking to its filtered grid; devices needing attention; pages this month against
 * last; agents that stopped; data-quality notes. Live from device events.
 */
export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const name = user.firstName || user.lastName || user.login;
  const home = useQuery({ queryKey: homeKey, queryFn: fetchHome, refetchInterval: (q) => (q.state.data?.pending ? PENDING_MS : REFRESH_MS) });
  useLiveHome();
  const canSeeDevices = useHasGrant('MNU_DEVICES.READ');
  const h = home.data;
  const devices = h?.devices ?? null;

  return (
    <AppPage title={t('nav.home')}>
      <Group justify="space-between">
        <Text c="dimmed">{t('home.greeting', { name })}</Text>
        {h ? (
          <Text size="xs" c="dimmed" data-testid="home-computed-at">
            {t('home.computedAt', { time: formatTime(h.computedAt) })}
          </Text>
        ) : null}
      </Group>
      {/* A failed refresh keeps the last figures (their time is above; the error is a notice). */}
      <LoadState error={h ? null : home.error} ready={!!h}>
        {() => (
          <Stack gap="md">
            {devices && devices.total === 0 ? <FirstSteps agents={h!.agents} /> : null}
            {devices && devices.total > 0 ? (
              <>
                <HomeFigures devices={devices} />
                <OpenAlerts />
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
                  <AttentionList attention={devices.attention} />
                  {h!.agents ? <SilentAgents agents={h!.agents} /> : <Quality devices={devices} />}
                </SimpleGrid>
                <HomePages pages={devices.pages} />
                {h!.agents ? (
                  <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
                    <NotReadDevices agents={h!.agents} />
                    <Quality devices={devices} />
                  </SimpleGrid>
                ) : null}
                {canSeeDevices ? <ForecastAccuracyCard /> : null}
              </>
            ) : null}
            <Card withBorder radius="md" padding="sm">
              <Title order={3} size="h5" mb="xs">
                {t('home.goTo')}
              </Title>
              <HomeSections />
            </Card>
          </Stack>
        )}
      </LoadState>
    </AppPage>
  );
}
