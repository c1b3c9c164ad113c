import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A yes-or-no question before an action that cannot be undone (delete, stop for all). */
export function ConfirmDialog(p: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** The confirm button's colour: red for what destroys, another for what only resets. */
  color?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={p.opened} onClose={p.onClose} title={p.title} centered data-testid="confirm-dialog">
      <Stack gap="md">
        <Text size="sm">{p.message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={p.onClose}>
            {t('general.cancel')}
          </Button>
          <Button color={p.color ?? 'red'} loading={p.busy} onClick={p.onConfirm}>
            {p.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
