import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useAuth } from '../lib/auth-context.tsx';
import { loginPathFor, safeRedirect } from '../lib/redirect.ts';
import { canOpen } from '../lib/screen-access.ts';
import { NoAccessPage } from './no-access-page.tsx';
import type { ScreenRoute } from './route-table.ts';

/** Protected screens: without a session, go to the login form and come back afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { pathname, search, hash } = useLocation();
  if (!user) return <Navigate to={loginPathFor(`${pathname}${search}${hash}`)} replace />;
  return children;
}

/**
 * A screen of a section the user may not open (by the rule that hides its menu entry): a clear
 * message instead of the screen, whose requests the server would refuse anyway.
 */
export function RequireSection({ route, children }: { route: ScreenRoute; children: ReactNode }) {
  const auth = useAuth();
  if (!canOpen(route.section, auth)) return <NoAccessPage route={route} />;
  return children;
}

/** The login form: a signed-in user goes on to the redirect target (or home). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [params] = useSearchParams();
  if (user) return <Navigate to={safeRedirect(params.get('redirect'), window.location.origin)} replace />;
  return children;
}
