import { ActionIcon, Anchor, AppShell, Breadcrumbs, Burger, Group, Text } from '@mantine/core';
import { IconLogout, IconPrinter, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { useBreadcrumbs } from './breadcrumb-context.tsx';

/** "Last First" as people in the system are listed; the login when there is no name. */
export function displayName(user: { lastName: string; firstName: string | null; login: string }): string {
  return [user.lastName, user.firstName].filter(Boolean).join(' ') || user.login;
}

interface AppHeaderProps {
  drawerOpened: boolean;
  onToggleDrawer: () => void;
}

/** Brand, breadcrumb of the current page, the user's name (a link to their API tokens) and sign-out. */
export function AppHeader({ drawerOpened, onToggleDrawer }: AppHeaderProps) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const user = useCurrentUser();
  const crumbs = useBreadcrumbs();

  return (
    <AppShell.Header px="sm">
      <Group h="100%" gap="sm" wrap="nowrap">
        <Burger
          opened={drawerOpened}
          onClick={onToggleDrawer}
          hiddenFrom="xs"
          size="sm"
          aria-label={drawerOpened ? t('layout.closeMenu') : t('layout.openMenu')}
        />
        <Anchor component={Link} to="/home" underline="never" c="inherit" visibleFrom="sm" aria-label={t('app.name')}>
          <Group gap={6} wrap="nowrap">
            <IconPrinter size={24} stroke={1.6} color="var(--mantine-primary-color-filled)" />
            <Text fw={700}>{t('app.name')}</Text>
          </Group>
        </Anchor>
        <Breadcrumbs
          aria-label={t('layout.breadcrumb')}
          separatorMargin={6}
          style={{ flex: 1, minWidth: 0, flexWrap: 'nowrap', overflow: 'hidden' }}
          ml={{ sm: 'lg' }}
        >
          {crumbs.map((c, i) =>
            c.to && i < crumbs.length - 1 ? (
              <Anchor key={i} component={Link} to={c.to} size="sm" truncate>
                {c.label}
              </Anchor>
            ) : (
              <Text key={i} size="sm" fw={i === crumbs.length - 1 ? 600 : undefined} truncate>
                {c.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
        {/* The user's name opens their API tokens (issue 42); a plain link keeps a menu's popover out of the start. */}
        <Anchor component={Link} to="/api-tokens" c="inherit" underline="never" visibleFrom="xs" data-testid="user-name" data-hint={t('nav.apiTokens')} aria-label={`${displayName(user)}: ${t('nav.apiTokens')}`}>
          <Group gap={6} wrap="nowrap">
            <IconUserCircle size={20} stroke={1.6} />
            <Text size="sm" truncate maw={220}>
              {displayName(user)}
            </Text>
          </Group>
        </Anchor>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('layout.signOut')} data-hint={t('layout.signOut')} onClick={() => void signOut()}>
          <IconLogout size={20} stroke={1.6} />
        </ActionIcon>
      </Group>
    </AppShell.Header>
  );
}
