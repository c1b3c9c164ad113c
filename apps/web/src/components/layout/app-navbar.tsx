import { AppShell, Group, NavLink, Text } from '@mantine/core';
import { IconChevronsLeft, IconChevronsRight, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { canOpen } from '../../lib/screen-access.ts';
import { displayName } from './app-header.tsx';
import { isMenuItemActive, MENU_ITEMS } from './menu-items.ts';

interface AppNavbarProps {
  /** Icons only (the 60 px rail); never on phones, where the menu is a drawer. */
  collapsed: boolean;
  onToggleCollapsed: () => void;
  /** Called after an entry is chosen, to close the phone drawer. */
  onNavigate: () => void;
}

/** The side menu: entries the user's grants allow, the current one highlighted. */
export function AppNavbar({ collapsed, onToggleCollapsed, onNavigate }: AppNavbarProps) {
  const { t } = useTranslation();
  const auth = useAuth();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const items = MENU_ITEMS.filter((item) => canOpen(item.key, auth));

  return (
    <AppShell.Navbar aria-label={t('layout.menu')}>
      {/* Phones have no room for the name in the header; the drawer shows it instead. */}
      <AppShell.Section hiddenFrom="xs" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap={6} wrap="nowrap">
          <IconUserCircle size={20} stroke={1.6} />
          <Text size="sm" truncate>
            {displayName(user)}
          </Text>
        </Group>
      </AppShell.Section>
      {/* A plain scrolling section: Mantine's ScrollArea would add 5 KB gzip to the start. */}
      <AppShell.Section grow px={collapsed ? 6 : 'xs'} py="xs" style={{ overflowY: 'auto' }}>
        {items.map((item) => {
          const label = t(item.label);
          return (
            <NavLink
              key={item.key}
              component={Link}
              to={item.to}
              data-menu={item.key}
              // The same accessible name whether the label is visible or not.
              aria-label={label}
              label={collapsed ? undefined : label}
              leftSection={<item.icon size={22} stroke={1.6} />}
              active={isMenuItemActive(item, pathname)}
              onClick={onNavigate}
              styles={{ root: { borderRadius: 'var(--mantine-radius-sm)', paddingBlock: 7 } }}
              // Collapsed to its icon, an entry names itself beside it (HintLayer).
              data-hint={collapsed ? label : undefined}
              data-hint-position="right"
            />
          );
        })}
      </AppShell.Section>
      <AppShell.Section visibleFrom="xs" px={collapsed ? 6 : 'xs'} py="xs">
        <NavLink
          component="button"
          aria-label={collapsed ? t('layout.expandMenu') : t('layout.collapseMenu')}
          label={collapsed ? undefined : t('layout.collapseMenu')}
          leftSection={collapsed ? <IconChevronsRight size={22} stroke={1.6} /> : <IconChevronsLeft size={22} stroke={1.6} />}
          onClick={onToggleCollapsed}
          c="dimmed"
          styles={{ root: { borderRadius: 'var(--mantine-radius-sm)', paddingBlock: 7 } }}
          data-hint={collapsed ? t('layout.expandMenu') : undefined}
          data-hint-position="right"
        />
      </AppShell.Section>
    </AppShell.Navbar>
  );
}
