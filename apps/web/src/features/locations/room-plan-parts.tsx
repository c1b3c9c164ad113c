import type { DragEvent } from 'react';
import { ActionIcon, Box, Paper, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PlanDevice, PlanPlacement } from '@pagewatch/contracts/dictionaries';
import { itemName } from '../../components/dictionary-items/dictionary-items-api.ts';

/** The room plan's parts (room-plan.tsx): its markers and, in change mode, the devices not placed yet. */

export const DRAG_TYPE = 'application/x-pagewatch-device';

type Drag = (id: number) => (e: DragEvent) => void;

/** In change mode: the location's devices not on the plan, dragged from here onto it, and dropped here to take one off. */
export function UnplacedList({ devices, unplaced, onDragStart, onUnplace }: { devices: PlanDevice[]; unplaced: PlanDevice[]; onDragStart: Drag; onUnplace: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      p="xs"
      w={220}
      data-testid="plan-device-list"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const id = Number(e.dataTransfer.getData(DRAG_TYPE));
        if (id) onUnplace(id);
      }}
    >
      <Text size="xs" fw={600} mb={4}>{t('locations.planUnplaced')}</Text>
      {unplaced.length === 0 && <Text size="xs" c="dimmed">{devices.length ? t('locations.planAllPlaced') : t('locations.noDevices')}</Text>}
      {unplaced.map((d) => (
        <Box key={d.id} draggable onDragStart={onDragStart(d.id)} data-testid={`plan-device-${d.id}`} style={{ cursor: 'grab', padding: '2px 4px', borderRadius: 4 }}>
          <Text size="sm">{d.name}</Text>
          <Text size="xs" c="dimmed">{d.ip}</Text>
        </Box>
      ))}
    </Paper>
  );
}

/** A device on the plan, in its status colour with its name, address and status as a tooltip; in change mode dragged and removed. */
export function PlanMarker({ placement: p, device: d, status: s, change, onDragStart, onUnplace }: {
  placement: PlanPlacement;
  device: PlanDevice;
  /** The status's colour and names (the STATUS dictionary's). */
  status: { color: string; name: string; nameRu: string | null } | undefined;
  change: boolean;
  onDragStart: Drag;
  onUnplace: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const label = `${d.name}${d.ip ? ` · ${d.ip}` : ''} · ${s ? itemName(s, i18n.language) : (d.statusCode ?? '')}`;
  return (
    <Tooltip label={label} withArrow>
      <Box
        data-testid={`plan-marker-${p.deviceId}`}
        data-x={p.x.toFixed(3)}
        data-y={p.y.toFixed(3)}
        data-status={d.statusCode ?? ''}
        draggable={change}
        onDragStart={change ? onDragStart(p.deviceId) : undefined}
        pos="absolute"
        style={{
          left: `${p.x * 100}%`,
          top: `${p.y * 100}%`,
          transform: 'translate(-50%, -50%)',
          width: 18,
          height: 18,
          borderRadius: '50%',
          background: `var(--mantine-color-${s?.color ?? 'gray'}-filled)`,
          border: '2px solid white',
          boxShadow: '0 0 0 1px rgba(0,0,0,.4)',
          cursor: change ? 'grab' : 'default',
        }}
      >
        {change && (
          <ActionIcon
            size={14}
            radius="xl"
            color="dark"
            variant="filled"
            aria-label={t('locations.planRemove')}
            style={{ position: 'absolute', top: -10, right: -12 }}
            onClick={() => onUnplace(p.deviceId)}
          >
            <IconX size={10} />
          </ActionIcon>
        )}
      </Box>
    </Tooltip>
  );
}
