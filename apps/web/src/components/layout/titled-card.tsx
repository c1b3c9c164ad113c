import { Paper, Text, Title, type TitleOrder } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card of a settings-like screen: its heading, a dimmed hint under it when there is one, then its content. */
export function TitledCard({ title, hint, order = 3, testId, children }: { title: string; hint?: string; order?: TitleOrder; testId?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Title order={order} size="h5" mb={hint ? 'xs' : 'sm'}>
        {title}
      </Title>
      {hint && (
        <Text size="sm" c="dimmed" mb="sm">
          {hint}
        </Text>
      )}
      {children}
    </Paper>
  );
}
