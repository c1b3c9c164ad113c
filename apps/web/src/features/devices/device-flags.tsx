import { IconAlertTriangle, IconPlugConnectedX, IconRefresh, IconSparkles, type Icon } from '@tabler/icons-react';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DeviceFlag } from '@pagewatch/contracts/devices';

/** Each device flag once: its icon, colour and the tooltip's text (spec section 3 flags). */
export const FLAG_LOOK: Record<DeviceFlag, { icon: Icon; color: string; labelKey: string }> = {
  newDevice30Flag: { icon: IconSparkles, color: 'blue', labelKey: 'devices.flag.newDevice30Flag' },
  notAvailableFlag: { icon: IconPlugConnectedX, color: 'gray', labelKey: 'devices.flag.notAvailableFlag' },
  matReplacementRequiredFlag: { icon: IconRefresh, color: 'orange', labelKey: 'devices.flag.matReplacementRequiredFlag' },
  needAttentionFlag: { icon: IconAlertTriangle, color: 'red', labelKey: 'devices.flag.needAttentionFlag' },
};

/** The flag's icon with its hint (`HintLayer`) when set; nothing when not. */
export function FlagIcon({ flag, on }: { flag: DeviceFlag; on: boolean }) {
  const { t } = useTranslation();
  if (!on) return null;
  const look = FLAG_LOOK[flag];
  const I = look.icon;
  const label = t(look.labelKey);
  return <I size={18} color={`var(--mantine-color-${look.color}-6)`} aria-label={label} data-flag={flag} data-hint={label} role="img" />;
}

/** The set flags as icons each with its words, for a card's row (a grid cell keeps the icon alone, its words in the hint). */
export function FlagsWithText({ flags }: { flags: DeviceFlag[] }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" data-testid="device-flags">
      {flags.map((f) => (
        <Group key={f} gap={4} wrap="nowrap">
          <FlagIcon flag={f} on />
          <Text size="sm">{t(FLAG_LOOK[f].labelKey)}</Text>
        </Group>
      ))}
    </Group>
  );
}
