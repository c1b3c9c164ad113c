import { AppShell, Center, Loader } from '@mantine/core';
import { HintLayer } from './hint-layer.tsx';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../../lib/auth-context.tsx';
import { prefetchDeviceLookups } from '../consumables/use-device-lookups.ts';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { AppNavbar } from './app-navbar.tsx';
import { BreadcrumbProvider } from './breadcrumb-context.tsx';

/** Menu widths: the 60 px rail of the spec when collapsed, full labels otherwise. */
export const NAVBAR_COLLAPSED_WIDTH = 60;
export const NAVBAR_WIDTH = 240;

/**
 * The shell of every protected screen. From 600 px up the menu is a rail or a full list
 * (kept in local storage); below 600 px it is hidden behind the burger as a drawer.
 */
export function AppLayout() {
  const { hasGrant } = useAuth();
  const [drawerOpened, drawer] = useDisclosure(false);
  const [collapsed, setCollapsed] = useLocalStorage({
    key: 'pagewatch.menuCollapsed',
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  // The drawer on phones always shows labels, whatever the desktop preference is.
  const wide = useMediaQuery('(min-width: 37.5em)', true);
  const rail = collapsed && wide !== false;
  const withFooter = hasGrant('MNU_VERSIONS.READ');
  // Most screens filter by printer type and location: their lookups load beside the screen's code.
  useEffect(() => prefetchDeviceLookups(), []);

  return (
    <BreadcrumbProvider>
      <AppShell
        header={{ height: 56 }}
        footer={withFooter ? { height: 28 } : undefined}
        navbar={{
          width: { base: NAVBAR_WIDTH, xs: rail ? NAVBAR_COLLAPSED_WIDTH : NAVBAR_WIDTH },
          breakpoint: 'xs',
          collapsed: { mobile: !drawerOpened },
        }}
        padding="md"
      >
        <AppHeader drawerOpened={drawerOpened} onToggleDrawer={drawer.toggle} />
        <AppNavbar
          collapsed={rail}
          onToggleCollapsed={() => setCollapsed((c) => !c)}
          onNavigate={drawer.close}
        />
        <AppShell.Main>
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </AppShell.Main>
        {withFooter && <AppFooter />}
        <HintLayer />
      </AppShell>
    </BreadcrumbProvider>
  );
}
