import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { HomeDevice } from '@pagewatch/contracts/devices';

/** A device as short lists name it: model and serial (or address). */
export const deviceName = (d: Pick<HomeDevice, 'modelCode' | 'serialNumber' | 'ip'>) => [d.modelCode, d.serialNumber ?? d.ip].filter(Boolean).join(' · ');

/** The device's name, opening its card. */
export function DeviceLink({ d }: { d: HomeDevice }) {
  return (
    <Anchor component={Link} to={`/device/${d.id}`} size="sm">
      {deviceName(d)}
    </Anchor>
  );
}

/** A short list's device cell: its link, and under it where it stands (location and address). */
export function DeviceCell({ d }: { d: HomeDevice }) {
  return (
    <Table.Td>
      <DeviceLink d={d} />
      <Text size="xs" c="dimmed">
        {d.locationName} · {d.ip}
      </Text>
    </Table.Td>
  );
}
