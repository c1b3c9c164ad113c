import { useState } from 'react';
import { Badge, Button, Group, Table } from '@mantine/core';
import { IconArrowMerge } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IdentityPair, MessageResponse } from '@pagewatch/contracts/devices';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { api } from '../../lib/api.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { notifyError, notifyMessage } from '../../lib/errors.ts';
import { CompactRows } from '../small-table.tsx';
import { DeviceCell, deviceName } from './device-link.tsx';

/** Identity reconciliation: `fromId`'s history moves into `into`, and `fromId` is deleted. */
const mergeDevices = (into: number, fromId: number) => api<MessageResponse>(`/devices/${into}/merge`, { method: 'POST', body: { fromId } });
/** The pair is two devices after all: it is not offered again. */
const notSame = (id: number, otherId: number) => api<MessageResponse>(`/devices/${id}/not-same`, { method: 'POST', body: { otherId } });

const pairKey = (p: IdentityPair) => `${p.older.id}-${p.newer.id}`;

/**
 * Devices that may be one (same serial, same MAC, a board swap): each pair with the reason, and
 * for those who edit devices a Merge that moves the older one's history into the newer one.
 */
export function IdentityPairs(props: { pairs: IdentityPair[]; onMerged: (pair: IdentityPair) => Promise<void> | void; onDismissed: (pair: IdentityPair) => Promise<void> | void }) {
  const { pairs, onMerged, onDismissed } = props;
  const { t } = useTranslation();
  const canMerge = useHasGrant('MNU_DEVICES.EDIT');
  const [asked, setAsked] = useState<IdentityPair | null>(null);
  const [busy, setBusy] = useState(false);
  const [dismissing, setDismissing] = useState<string | null>(null);

  const dismiss = async (pair: IdentityPair) => {
    setDismissing(pairKey(pair));
    try {
      notifyMessage((await notSame(pair.newer.id, pair.older.id)).message);
      await onDismissed(pair);
    } catch (err) {
      notifyError(err);
    } finally {
      setDismissing(null);
    }
  };

  const merge = async () => {
    if (!asked) return;
    setBusy(true);
    try {
      const res = await mergeDevices(asked.newer.id, asked.older.id);
      notifyMessage(res.message);
      setAsked(null);
      await onMerged(asked);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <CompactRows rows={pairs} rowKey={pairKey} testId="identity-pairs">
        {(p) => (
          <>
            <Table.Td>
              <Badge variant="light" color="orange" size="sm">
                {t(`devices.identity.${p.kind}`)}
              </Badge>
            </Table.Td>
            <DeviceCell d={p.older} />
            <DeviceCell d={p.newer} />
            {canMerge ? (
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Button size="compact-xs" variant="light" leftSection={<IconArrowMerge size={14} />} onClick={() => setAsked(p)}>
                    {t('devices.merge')}
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="gray" loading={dismissing === pairKey(p)} onClick={() => void dismiss(p)}>
                    {t('devices.notSame')}
                  </Button>
                </Group>
              </Table.Td>
            ) : null}
          </>
        )}
      </CompactRows>
      <ConfirmDialog
        opened={!!asked}
        title={t('devices.mergeTitle')}
        message={asked ? t('devices.mergeConfirm', { older: deviceName(asked.older), newer: deviceName(asked.newer) }) : ''}
        confirmLabel={t('devices.merge')}
        busy={busy}
        onConfirm={() => void merge()}
        onClose={() => setAsked(null)}
      />
    </>
  );
}
