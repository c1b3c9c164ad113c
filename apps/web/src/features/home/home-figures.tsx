import { Card, Group, SimpleGrid, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCalendarDue, IconCircleCheck, IconCircleX, IconDroplet, IconDropletOff, IconPlugConnectedX, IconQuestionMark, IconTool } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEVICE_STATUS_CODES, DEVICE_STATUS_DEFS, type DeviceStatusCode } from '@pagewatch/contracts/device-events';
import type { Home } from '@pagewatch/contracts/home';
import { gridLink } from '../../components/data-grid/grid-storage.ts';
import { formatNumber } from '../../lib/format.ts';

type Devices = NonNullable<Home['devices']>;
type Figure = { key: string; label: string; value: number; color: string; to: string; icon: ComponentType<{ size?: number; stroke?: number }> };

const STATUS_ICON: Record<DeviceStatusCode, Figure['icon']> = {
  OK: IconCircleCheck,
  WARNING: IconAlertTriangle,
  ERROR: IconCircleX,
  NOT_AVAILABLE: IconPlugConnectedX,
  UNKNOWN: IconQuestionMark,
};

/** One figure of home: a number that opens the grid filtered to what it counts. */
function FigureCard({ f }: { f: Figure }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton component={Link} to={f.to} data-home-figure={f.key} aria-label={`${t(f.label)}: ${f.value}`}>
      <Card withBorder padding="sm" radius="md" h="100%">
        <Group wrap="nowrap" gap="sm">
          <ThemeIcon variant="light" color={f.color} size={38} radius="md">
            <f.icon size={22} stroke={1.6} />
          </ThemeIcon>
          <div style={{ minWidth: 0, hyphens: 'auto' }}>
            <Text fw={700} size="xl" lh={1.1} c={f.value ? undefined : 'dimmed'}>
              {formatNumber(f.value)}
            </Text>
            <Text size="sm" c="dimmed">
              {t(f.label)}
            </Text>
          </div>
        </Group>
      </Card>
    </UnstyledButton>
  );
}

function FigureRow({ title, figures }: { title: string; figures: Figure[] }) {
  return (
    <div>
      <Title order={3} size="h5" mb={6}>
        {title}
      </Title>
      {/* Five to a row at 1280 px and more: the device row's five fit, and "Предупреждение" is not cut at 1440. */}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {figures.map((f) => (
          <FigureCard key={f.key} f={f} />
        ))}
      </SimpleGrid>
    </div>
  );
}

/** Devices by state, and supplies running out: each figure links to its filtered grid. */
export function HomeFigures({ devices }: { devices: Devices }) {
  const { t } = useTranslation();
  const states: Figure[] = DEVICE_STATUS_CODES.filter((s) => s !== 'UNKNOWN' || devices.byStatus.UNKNOWN > 0).map((s) => ({
    key: `status-${s}`,
    label: `home.status.${s}`,
    value: devices.byStatus[s] ?? 0,
    color: DEVICE_STATUS_DEFS[s].color,
    icon: STATUS_ICON[s],
    to: gridLink('/devices', { headerFilters: { statusCode: [s] } }),
  }));
  states.push({
    key: 'maintenance',
    label: 'home.maintenance',
    value: devices.maintenance,
    color: 'blue',
    icon: IconTool,
    to: gridLink('/devices', { headerFilters: { managedFlag: [true] } }),
  });
  const supplies: Figure[] = [
    { key: 'within7', label: 'home.runsOut7', value: devices.runsOut.within7, color: 'red', icon: IconCalendarDue, to: gridLink('/consumables', { headerFilters: { daysLeft: ['7'] } }) },
    { key: 'within14', label: 'home.runsOut14', value: devices.runsOut.within14, color: 'orange', icon: IconDroplet, to: gridLink('/consumables', { headerFilters: { daysLeft: ['14'] } }) },
    { key: 'empty', label: 'home.empty', value: devices.runsOut.empty, color: 'gray', icon: IconDropletOff, to: gridLink('/consumables', { filterRow: { level: 0 } }) },
  ];
  return (
    <>
      <FigureRow title={t('home.devicesTitle', { count: devices.total })} figures={states} />
      <FigureRow title={t('home.suppliesTitle')} figures={supplies} />
    </>
  );
}
