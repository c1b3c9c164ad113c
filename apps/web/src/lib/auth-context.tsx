import type { LoginResponse } from '@pagewatch/contracts/auth';
import type { ClientConfig } from '@pagewatch/contracts/config';
import { hasGrant as grantsInclude, type Grant, type RoleCode } from '@pagewatch/contracts/grants';
import type { Me } from '@pagewatch/contracts/users';
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, getToken, setAuthErrorHandler, setToken } from './api.ts';
import { loadClientConfig } from './config.ts';
import { startLookupSync } from './lookups.ts';
import { queryClient } from './query-client.ts';
import { LOGIN_PATH } from './redirect.ts';
import { startWs, stopWs, wsUrl } from './ws.ts';

export interface AuthValue {
  /** The signed-in user, or null on the public screens. */
  user: Me | null;
  config: ClientConfig;
  /** `hasGrant('MNU_USERS.READ')` against the user's resolved grants. */
  hasGrant: (grant: Grant) => boolean;
  /** True when the user holds one of the roles (role codes, e.g. ADMIN). */
  hasRole: (...codes: RoleCode[]) => boolean;
  /** Keeps the session returned by `POST /auth/`. */
  signIn: (res: LoginResponse) => void;
  /** Revokes the token on the server (best effort) and returns to the login form. */
  signOut: () => Promise<void>;
  /** Reloads `/users/me`, e.g. after the user edited their own profile. */
  refreshUser: () => Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

type Startup = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'ready'; config: ClientConfig };

interface AuthProviderProps {
  children: ReactNode;
  /** Shown while the config and the current user load. */
  loading: ReactNode;
  /** Shown when the app cannot start (server unreachable); `retry` starts again. */
  failed: (error: unknown, retry: () => void) => ReactNode;
}

/** Startup (config, then the current user when a token is stored) and the session. */
export function AuthProvider({ children, loading, failed }: AuthProviderProps) {
  const navigate = useNavigate();
  const [startup, setStartup] = useState<Startup>({ state: 'loading' });
  const [user, setUser] = useState<Me | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setStartup({ state: 'loading' });
    (async () => {
      const config = await loadClientConfig();
      let me: Me | null = null;
      if (getToken()) {
        try {
          me = await api<Me>('/users/me');
        } catch (err) {
          // A stale token just means signing in again; anything else stops the start.
          if (!(err instanceof ApiError && err.status === 401)) throw err;
          setToken(null);
        }
      }
      if (cancelled) return;
      setUser(me);
      setStartup({ state: 'ready', config });
    })().catch((error: unknown) => {
      if (!cancelled) setStartup({ state: 'failed', error });
    });
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  // An expired or revoked session anywhere: forget the user; the route guard then sends the
  // browser to the login form with the current path as redirect.
  useEffect(() => {
    setAuthErrorHandler(() => {
      setUser(null);
      queryClient.clear();
    });
    return () => setAuthErrorHandler(null);
  }, []);

  const config = startup.state === 'ready' ? startup.config : null;
  const signedIn = user !== null;
  useEffect(() => {
    if (!signedIn || !config) return;
    startWs(() => wsUrl(config.WS, getToken() ?? ''));
    const stopLookups = startLookupSync();
    return () => {
      stopLookups();
      stopWs();
    };
  }, [signedIn, config]);

  const signIn = useCallback((res: LoginResponse) => {
    setToken(res.token);
    setUser(res.user);
  }, []);

  const signOut = useCallback(async () => {
    try {
      if (getToken()) await api('/auth/logout', { method: 'POST' });
    } catch {
      // The token is dropped here whatever the server says; it expires on its own.
    }
    setToken(null);
    queryClient.clear();
    navigate(LOGIN_PATH, { replace: true });
    setUser(null);
  }, [navigate]);

  const refreshUser = useCallback(async () => {
    setUser(await api<Me>('/users/me'));
  }, []);

  const value = useMemo<AuthValue | null>(() => {
    if (!config) return null;
    const grants = user?.resolvedGrants;
    const roles = new Set(user?.grants.map((r) => r.code) ?? []);
    return {
      user,
      config,
      hasGrant: (grant) => grantsInclude(grants, grant),
      hasRole: (...codes) => codes.some((c) => roles.has(c)),
      signIn,
      signOut,
      refreshUser,
    };
  }, [config, user, signIn, signOut, refreshUser]);

  if (startup.state === 'failed') return failed(startup.error, () => setAttempt((n) => n + 1));
  if (!value) return loading;
  return <AuthContext value={value}>{children}</AuthContext>;
}

/** The session: current user, config, `hasGrant`, sign-in and sign-out. */
export function useAuth(): AuthValue {
  const ctx = use(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in user on a protected screen (the route guard guarantees one). */
export function useCurrentUser(): Me {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser on a public screen');
  return user;
}

export function useHasGrant(grant: Grant): boolean {
  return useAuth().hasGrant(grant);
}
