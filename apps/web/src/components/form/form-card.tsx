import { Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

const BARE_FIELDSET = { border: 0, padding: 0, margin: 0 };

/** A card of a form whose fields are disabled together (a user who may only read, a save under way). */
export function FormCard({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <fieldset disabled={disabled} style={BARE_FIELDSET}>
        <Stack gap="sm">{children}</Stack>
      </fieldset>
    </Paper>
  );
}
