import { useState } from 'react';
import { Anchor, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DEVICE_WEB_PORTS, type DeviceWebPort } from '@pagewatch/contracts/device-web';
import { apiBase } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { closeWebSession, fetchWebSessions, openWebSession, webSessionsKey } from './api/devices-api.ts';

/** A path of the server (the session's page) as an address, beside the API wherever that is. */
const pageAddress = (path: string) => new URL(path, new URL(apiBase(), window.location.href)).href;

/**
 * The device's own web page through its agent (issue 55), with BTN_DEVICE_WEB.EXECUTE: opens it
 * in a new tab (a session of 30 minutes at most) and lists the caller's open sessions, each
 * closed from here.
 */
export function DeviceWebPage({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const [port, setPort] = useState<DeviceWebPort>(80);
  const [blocked, setBlocked] = useState<string | null>(null);
  const sessions = useQuery({ queryKey: webSessionsKey(deviceId), queryFn: () => fetchWebSessions(deviceId) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: webSessionsKey(deviceId) });
  const open = useMutation({
    mutationFn: async () => {
      // Opened on the click itself (a tab opened after the answer would be blocked), then sent to the page.
      const tab = window.open('about:blank', '_blank');
      try {
        const session = await openWebSession(deviceId, port);
        const address = pageAddress(session.url ?? '/');
        if (tab) {
          tab.opener = null;
          tab.location.href = address;
          setBlocked(null);
        } else setBlocked(address);
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onSettled: refresh,
  });
  const close = useMutation({ mutationFn: closeWebSession, onSettled: refresh });

  return (
    <Paper withBorder p="md" data-testid="device-web">
      <Stack gap="sm">
        <Title order={4} size="h5">{t('devices.web.title')}</Title>
        <Text size="sm" c="dimmed">{t('devices.web.hint')}</Text>
        <Group gap="sm">
          <SegmentedControl
            aria-label={t('devices.web.port')}
            value={String(port)}
            onChange={(v) => setPort(Number(v) as DeviceWebPort)}
            data={DEVICE_WEB_PORTS.map((p) => ({ value: String(p), label: p === 443 ? 'HTTPS 443' : `HTTP ${p}` }))}
          />
          <Button leftSection={<IconExternalLink size={16} />} loading={open.isPending} onClick={() => open.mutate()}>
            {t('devices.web.open')}
          </Button>
        </Group>
        {blocked ? <Anchor href={blocked} target="_blank" rel="noopener noreferrer">{t('devices.web.blocked')}</Anchor> : null}
        {open.error ? <Text c="red" size="sm">{errorMessage(open.error)}</Text> : null}
        {close.error ? <Text c="red" size="sm">{errorMessage(close.error)}</Text> : null}
        {(sessions.data ?? []).map((s) => (
          <Group key={s.id} justify="space-between" data-testid="device-web-session">
            <Text size="sm">{t('devices.web.session', { id: s.id, port: s.port, until: dayjs(s.expiresAt).format('HH:mm') })}</Text>
            <Button size="xs" variant="light" color="red" leftSection={<IconX size={14} />} loading={close.isPending && close.variables === s.id} onClick={() => close.mutate(s.id)}>
              {t('devices.web.close')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
