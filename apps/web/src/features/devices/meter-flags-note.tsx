import { List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MeterFlag } from '@pagewatch/contracts/meter-flags';
import { meterFlagText } from './meter-flag-text.ts';

/** The card's data-quality note (issue 41): the device's implausible meter reads, the newest first. */
export function MeterFlagsNote({ flags }: { flags: MeterFlag[] }) {
  const { t } = useTranslation();
  return (
    <List size="sm" spacing={2} data-testid="meter-flags">
      {flags.map((f, i) => (
        <List.Item key={`${f.at}-${f.kind}-${i}`}>
          <Text size="sm" c="orange" span>
            {meterFlagText(t, f)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
