import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppPage } from '../components/layout/app-page.tsx';
import type { ScreenRoute } from './route-table.ts';

type Props = {
  route: ScreenRoute;
  icon: Icon;
  /** What the user reads instead of the screen: a heading, a line of help, maybe an action. */
  message: string;
  hint: string;
  action?: ReactNode;
  testId: string;
};

/**
 * A screen's title and breadcrumb with a message instead of its content (not built yet, no
 * access). For item pages an id below 0 (or none) means a new item, as the real forms treat it.
 */
export function ScreenMessage({ route, icon: IconComponent, message, hint, action, testId }: Props) {
  const { t } = useTranslation();
  const { id } = useParams();
  const title = t(route.title);
  const isNew = id === undefined || (/^-?\d+$/.test(id) && Number(id) < 0);
  const pageTitle = !route.parent ? title : isNew ? t('pages.newItem', { item: title }) : `${title} ${id}`;
  const breadcrumbs = route.parent ? [{ label: t(route.parent.title), to: route.parent.to }, { label: pageTitle }] : undefined;
  return (
    <AppPage title={pageTitle} breadcrumbs={breadcrumbs}>
      <Paper withBorder p="xl" maw={640} data-testid={testId}>
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon variant="light" color="gray" size={56} radius="xl">
            <IconComponent size={30} stroke={1.6} />
          </ThemeIcon>
          <Title order={3} size="h4">
            {message}
          </Title>
          <Text c="dimmed" size="sm">
            {hint}
          </Text>
          {action}
        </Stack>
      </Paper>
    </AppPage>
  );
}
