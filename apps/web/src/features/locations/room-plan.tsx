import { Box, Button, FileButton, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ROOM_PLAN_MAX_BYTES, ROOM_PLAN_TYPES, type PlanDevice, type PlanPlacement } from '@pagewatch/contracts/dictionaries';
import { useStatusColors } from '../../components/dictionary-items/dictionary-items-api.ts';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { subscribeDeviceEvents } from '../../lib/ws.ts';
import { DRAG_TYPE, PlanMarker, UnplacedList } from './room-plan-parts.tsx';
import { deletePlan, fetchPlan, fetchPlanImage, locationKeys, planKey, savePlacements, uploadPlan } from './api/locations-api.ts';

/** View mode follows device events live; this slow refresh only covers a lost connection. */
const FALLBACK_REFRESH_MS = 60_000;
/** Several events of one agent run arrive together: reload once after they settle. */
const EVENT_SETTLE_MS = 500;

const clamp = (v: number) => Math.min(1, Math.max(0, v));

/**
 * The room plan of a location (spec section 2): an uploaded image with the location's devices
 * on it. View mode shows them in their status colours; change mode places them by drag and drop
 * from the side list, moves and removes them, and saves.
 */
export function RoomPlan({ locationId, canEdit }: { locationId: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'view' | 'change'>('view');
  const { plan, image, setVersion } = usePlan(locationId, mode);
  const colors = useStatusColors();

  const [draft, setDraft] = useState<Map<number, PlanPlacement> | null>(null);
  const placements = draft ?? new Map((plan.data?.placements ?? []).map((p) => [p.deviceId, p]));
  const devices = plan.data?.devices ?? [];
  const byId = new Map(devices.map((d) => [d.id, d]));
  const surface = useRef<HTMLDivElement>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: planKey(locationId) });
  const upload = useMutation({
    mutationFn: (file: File) => uploadPlan(locationId, file),
    onSuccess: (p) => {
      notifySuccess('upload');
      queryClient.setQueryData(planKey(locationId), p);
      setVersion((v) => v + 1);
    },
    onError: notifyError,
  });
  const removePlan = useMutation({ mutationFn: () => deletePlan(locationId), onSuccess: () => { notifySuccess('deleted'); refresh(); }, onError: notifyError });
  const save = useMutation({
    mutationFn: () => savePlacements(locationId, [...placements.values()]),
    onSuccess: (p) => {
      notifySuccess('updated');
      queryClient.setQueryData(planKey(locationId), p);
      setDraft(null);
      setMode('view');
    },
    onError: notifyError,
  });

  const pick = (file: File | null) => {
    if (!file) return;
    // The same words the server would answer with, without sending 10 MB first.
    if (file.size > ROOM_PLAN_MAX_BYTES) return notifyError(new Error(t('locations.planTooLarge')));
    upload.mutate(file);
  };

  const change = mode === 'change';
  const place = (deviceId: number, x: number, y: number) => {
    const next = new Map(placements);
    next.set(deviceId, { deviceId, x: clamp(x), y: clamp(y) });
    setDraft(next);
  };
  const unplace = (deviceId: number) => {
    const next = new Map(placements);
    next.delete(deviceId);
    setDraft(next);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const id = Number(e.dataTransfer.getData(DRAG_TYPE));
    const rect = surface.current?.getBoundingClientRect();
    if (!id || !rect || !byId.has(id)) return;
    place(id, (e.clientX - rect.left) / rect.width, (e.clientY - rect.top) / rect.height);
  };
  const dragStart = (id: number) => (e: DragEvent) => {
    e.dataTransfer.setData(DRAG_TYPE, String(id));
    e.dataTransfer.effectAllowed = 'move';
  };

  const statusOf = (d: PlanDevice) => (d.statusCode ? colors.data?.[d.statusCode] : undefined);
  const unplaced = devices.filter((d) => !placements.has(d.id));

  return (
    <Stack gap="sm" data-testid="room-plan">
      <Group gap="xs">
        {canEdit && (
          <FileButton onChange={pick} accept={ROOM_PLAN_TYPES.join(',')} inputProps={{ 'data-testid': 'plan-upload' } as never}>
            {(props) => (
              <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                {t('locations.planUpload')}
              </Button>
            )}
          </FileButton>
        )}
        {canEdit && plan.data?.planType && (
          <>
            <SegmentedControl
              size="xs"
              value={mode}
              onChange={(v) => {
                setMode(v as 'view' | 'change');
                setDraft(null);
              }}
              data={[
                { value: 'view', label: t('locations.planView') },
                { value: 'change', label: t('locations.planChange') },
              ]}
            />
            {change && (
              <>
                <Button size="xs" onClick={() => save.mutate()} loading={save.isPending}>{t('locations.planSave')}</Button>
                <Button size="xs" variant="default" onClick={() => setDraft(null)}>{t('locations.planReset')}</Button>
              </>
            )}
            {!change && (
              <Button size="xs" color="red" variant="subtle" onClick={() => removePlan.mutate()}>{t('locations.planDelete')}</Button>
            )}
          </>
        )}
        <Text size="xs" c="dimmed">{t('locations.planHint')}</Text>
      </Group>

      {!plan.data?.planType ? (
        <Text c="dimmed" size="sm">{t('locations.noPlan')}</Text>
      ) : (
        <Group align="flex-start" wrap="nowrap" gap="md">
          {change && <UnplacedList devices={devices} unplaced={unplaced} onDragStart={dragStart} onUnplace={unplace} />}
          <Box
            ref={surface}
            pos="relative"
            style={{ flex: 1, maxWidth: 1000, border: '1px solid var(--mantine-color-default-border)', lineHeight: 0 }}
            onDragOver={change ? (e) => e.preventDefault() : undefined}
            onDrop={change ? onDrop : undefined}
            data-testid="plan-surface"
          >
            {image.data && <img src={image.data} alt={t('locations.tabs.plan')} style={{ width: '100%', display: 'block' }} draggable={false} data-testid="plan-image" />}
            {[...placements.values()].map((p) => {
              const d = byId.get(p.deviceId);
              if (!d) return null;
              return <PlanMarker key={p.deviceId} placement={p} device={d} status={statusOf(d)} change={change} onDragStart={dragStart} onUnplace={unplace} />;
            })}
          </Box>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The location's plan and its image: in view mode the plan follows its devices' events live
 * (reloaded once they settle), with a slow refresh for a lost connection; `setVersion` after an
 * upload reads the new image.
 */
function usePlan(locationId: number, mode: 'view' | 'change') {
  const [version, setVersion] = useState(0);
  const plan = useQuery({ queryKey: planKey(locationId), queryFn: () => fetchPlan(locationId), refetchInterval: mode === 'view' ? FALLBACK_REFRESH_MS : false });
  const planDeviceIds = useRef(new Set<number>());
  planDeviceIds.current = new Set((plan.data?.devices ?? []).map((d) => d.id));
  useEffect(() => {
    if (mode !== 'view') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribeDeviceEvents((e) => {
      if (!planDeviceIds.current.has(e.deviceId)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: planKey(locationId) }), EVENT_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [mode, locationId]);
  const image = useQuery({
    queryKey: locationKeys.planImage(locationId, version, plan.data?.planType),
    queryFn: () => fetchPlanImage(locationId),
    enabled: !!plan.data?.planType,
    staleTime: Infinity,
  });
  useEffect(() => {
    const url = image.data;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [image.data]);
  return { plan, image, setVersion };
}
