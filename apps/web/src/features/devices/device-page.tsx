import { Alert, Center, Loader, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { IdentityPairs } from '../../components/devices/identity-pairs.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { deviceKey, fetchDevice } from './api/devices-api.ts';
import { DeviceDetail } from './device-detail.tsx';
import { DeviceGeneral } from './device-general.tsx';
import { DeviceIpHistory, DeviceUserDays } from './device-history-grids.tsx';
import { MeterCorrections } from './meter-corrections.tsx';

const TABS = ['general', 'detail', 'users', 'ip'] as const;
type Tab = (typeof TABS)[number];

/** `/device/{id}` (spec section 2): the device card with its four tabs; the tab is kept in `?tab=`. */
export function DevicePage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isInteger(id) && id > 0;
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'general';
  const device = useQuery({ queryKey: deviceKey(id), queryFn: () => fetchDevice(id), enabled: valid });

  const d = device.data;
  const title = `${t('pages.device')}: ${d ? [d.modelCode, d.serialNumber ?? d.ip].filter(Boolean).join(' · ') : (idParam ?? '')}`;
  return (
    <AppPage title={title} breadcrumbs={[{ label: t('nav.devices'), to: '/devices' }, { label: title }]}>
      {!valid ? (
        <Alert color="red">{t('devices.notFound')}</Alert>
      ) : device.error ? (
        <Alert color="red" role="alert">
          {errorMessage(device.error)}
        </Alert>
      ) : !d ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <>
          {d.sharedSerialAddresses.length ? (
            <Alert color="orange" variant="light" title={t('devices.sharedSerialTitle')} data-testid="device-shared-serial">
              {t('devices.sharedSerial', { addresses: d.sharedSerialAddresses.join(', ') })}
            </Alert>
          ) : null}
          {d.identity.length ? (
            <Alert color="orange" variant="light" title={t('devices.identityTitle')} data-testid="device-identity">
              <IdentityPairs
                pairs={d.identity}
                onMerged={async (pair) => {
                  queryClient.removeQueries({ queryKey: deviceKey(pair.older.id) });
                  await queryClient.invalidateQueries({ queryKey: deviceKey(pair.newer.id) });
                  if (pair.newer.id !== id) await navigate(`/device/${pair.newer.id}`);
                }}
                onDismissed={() => queryClient.invalidateQueries({ queryKey: deviceKey(id) })}
              />
            </Alert>
          ) : null}
          <Tabs value={tab} onChange={(v) => setParams(v && v !== 'general' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="general">{t('devices.tab.general')}</Tabs.Tab>
              <Tabs.Tab value="detail">{t('devices.tab.detail')}</Tabs.Tab>
              <Tabs.Tab value="users">{t('devices.tab.users')}</Tabs.Tab>
              <Tabs.Tab value="ip">{t('devices.tab.ip')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="general">
              <DeviceGeneral device={d} />
            </Tabs.Panel>
            <Tabs.Panel value="detail">
              <DeviceDetail device={d} />
              <MeterCorrections deviceId={d.id} />
            </Tabs.Panel>
            <Tabs.Panel value="users">
              <DeviceUserDays deviceId={d.id} />
            </Tabs.Panel>
            <Tabs.Panel value="ip">
              <DeviceIpHistory deviceId={d.id} />
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </AppPage>
  );
}
