import { Group, Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetBreadcrumbs, type Crumb } from './breadcrumb-context.tsx';

export interface AppPageProps {
  /** The page heading, also the browser tab title. */
  title: string;
  /** The header breadcrumb; defaults to the title alone. */
  breadcrumbs?: Crumb[];
  /** Buttons shown at the right of the heading (save, delete, create…). */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of every protected screen: publishes the breadcrumb to the header, sets the tab
 * title and lays out the heading with its actions above the content.
 */
export function AppPage({ title, breadcrumbs, actions, children }: AppPageProps) {
  const { t } = useTranslation();
  useSetBreadcrumbs(breadcrumbs ?? [{ label: title }]);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}
