import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The frame of the public screens: brand above a card holding one form. */
export function PublicCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-light)">
      <Center mih="100dvh" p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Group justify="center" gap="xs">
            <IconPrinter size={36} stroke={1.5} color="var(--mantine-primary-color-filled)" />
            <Stack gap={0}>
              <Text fw={700} size="xl" lh={1.1}>
                {t('app.name')}
              </Text>
              <Text size="sm" c="dimmed">
                {t('app.tagline')}
              </Text>
            </Stack>
          </Group>
          <Paper withBorder shadow="sm" radius="md" p="xl">
            <Title order={1} size="h3" mb="md">
              {title}
            </Title>
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
