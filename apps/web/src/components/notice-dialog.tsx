import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** A message with one button that closes it: what stopped a save, and why (spec section 5). */
export function NoticeDialog(p: { opened: boolean; title: string; message: string; closeLabel: string; onClose: () => void; testId?: string }) {
  return (
    <Modal opened={p.opened} onClose={p.onClose} title={p.title} centered data-testid={p.testId}>
      <Stack gap="md">
        <Text size="sm">{p.message}</Text>
        <Group justify="flex-end">
          <Button onClick={p.onClose}>{p.closeLabel}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
