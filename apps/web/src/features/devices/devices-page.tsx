import { useMemo, useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconDownload, IconToolsOff, IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { devicesList } from '@pagewatch/contracts/devices';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import type { RowId } from '../../components/data-grid/grid-tree.ts';
import { gridQueryKey } from '../../components/data-grid/use-grid-data.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { notifyError, notifyMessage } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { changeActivity, downloadWalks } from './api/devices-api.ts';
import { devicesColumns } from './devices-list.tsx';
import { useDeviceLookups } from '../../components/consumables/use-device-lookups.ts';

/** `/devices` (spec section 2): the devices grid; download unknown devices' walks; maintenance for the ticked devices. */
export function DevicesPage() {
  const { t } = useTranslation();
  const canEdit = useHasGrant('MNU_DEVICES.EDIT');
  const lookups = useDeviceLookups();
  // The grid reads its column defaults once, so it waits for the lookups.
  const columns = useMemo(() => (lookups ? devicesColumns(lookups) : null), [lookups]);
  const [selected, setSelected] = useState<RowId[]>([]);
  const [busy, setBusy] = useState<'on' | 'off' | 'walks' | null>(null);

  const maintenance = async (on: boolean) => {
    setBusy(on ? 'on' : 'off');
    try {
      const res = await changeActivity(selected.map(Number), on);
      notifyMessage(res.message);
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey: gridQueryKey(devicesList.endpoint) });
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  };
  const walks = async () => {
    setBusy('walks');
    try {
      // The ticked devices' walks, or those of every unknown device in scope.
      const { headers } = await downloadWalks(selected.map(Number));
      notifyMessage(t('devices.walksDownloaded', { count: Number(headers.get('X-Walk-Count') ?? 0) }));
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <ListScreen
      section="devices"
      list={devicesList}
      columns={columns}
      selectedIds={canEdit ? selected : undefined}
      onSelectionChange={canEdit ? setSelected : undefined}
      actions={
        <>
          <Button size="xs" variant="default" leftSection={<IconDownload size={16} />} loading={busy === 'walks'} onClick={() => void walks()}>
            {t('devices.downloadWalks')}
          </Button>
          {canEdit ? (
            <>
              <Button size="xs" leftSection={<IconTool size={16} />} disabled={!selected.length} loading={busy === 'on'} onClick={() => void maintenance(true)}>
                {t('devices.enableMaintenance')}
              </Button>
              <Button size="xs" variant="light" color="orange" leftSection={<IconToolsOff size={16} />} disabled={!selected.length} loading={busy === 'off'} onClick={() => void maintenance(false)}>
                {t('devices.disableMaintenance')}
              </Button>
              {selected.length ? (
                <Text size="xs" c="dimmed" data-testid="selected-count">
                  {t('grid.selectedCount', { count: selected.length })}
                </Text>
              ) : null}
            </>
          ) : null}
        </>
      }
    />
  );
}
