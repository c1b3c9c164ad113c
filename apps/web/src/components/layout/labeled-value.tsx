import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One read-only fact of an item's state card: a small dimmed label above its value. */
export function LabeledValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}
