import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * A secret the server shows once (an agent's token, a personal API token): a warning, the secret
 * with a copy button, and how to use it. The labels are the caller's, already translated.
 */
export function ShownOnceDialog(p: {
  secret: string | null;
  title: string;
  warning: string;
  usageLabel: string;
  usage: string;
  copyLabel: string;
  copiedLabel: string;
  testId: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={p.secret !== null} onClose={p.onClose} title={p.title} size="lg">
      <Stack>
        <Alert color="yellow">{p.warning}</Alert>
        <Code block data-testid={p.testId}>
          {p.secret}
        </Code>
        <Text size="sm">{p.usageLabel}</Text>
        <Code block>{p.usage}</Code>
        <Group justify="flex-end">
          <CopyButton value={p.secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? p.copiedLabel : p.copyLabel}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Modal>
  );
}
