import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useAuth } from '../lib/auth-context.tsx';
import { loginPathFor, safeRedirect } from '../lib/redirect.ts';

/** Protected screens: without a session, go to the login form and come back afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { pathname, search, hash } = useLocation();
  if (!user) return <Navigate to={loginPathFor(`${pathname}${search}${hash}`)} replace />;
  return children;
}

/** The login form: a signed-in user goes on to the redirect target (or home). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [params] = useSearchParams();
  if (user) return <Navigate to={safeRedirect(params.get('redirect'), window.location.origin)} replace />;
  return children;
}
