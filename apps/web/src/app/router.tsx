import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AppLayout } from '../components/layout/app-layout.tsx';
import { FullScreenLoader } from '../components/layout/full-screen-loader.tsx';
import { StartupError } from '../components/layout/startup-error.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { AuthProvider } from '../lib/auth-context.tsx';
import { HOME_PATH, LOGIN_PATH } from '../lib/redirect.ts';
import { PlaceholderPage } from './placeholder-page.tsx';
import { PublicOnly, RequireAuth, RequireSection } from './route-guards.tsx';
import { SCREEN_ROUTES } from './route-table.ts';
import { lazyScreen, ScreenFrame } from '../components/layout/lazy-screen.tsx';

const RestorePasswordPage = lazyScreen(() => import('../features/auth/restore-password-page.tsx'), 'RestorePasswordPage');

/**
 * Routes of spec section 2. The root, `/recovery` and any unknown path go home first, so an
 * unauthenticated visitor of a stale link lands on the login form with `redirect=/home`.
 */
export function AppRouter() {
  return (
    // Not in a transition: a screen whose chunk is still on its way shows ScreenFrame's loader at
    // once, instead of the old screen staying under the new address with no sign (issue 56).
    <BrowserRouter useTransitions={false}>
      <AuthProvider
        loading={<FullScreenLoader />}
        failed={(error, retry) => <StartupError error={error} onRetry={retry} />}
      >
        <Routes>
          <Route
            path={LOGIN_PATH}
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route
            path="/restore-password/:token?"
            element={
              <ScreenFrame>
                <RestorePasswordPage />
              </ScreenFrame>
            }
          />
          <Route
            element={
              <RequireAuth>
                <AppLayout />
              </RequireAuth>
            }
          >
            {SCREEN_ROUTES.map((route) => {
              const Screen = route.element;
              return (
                <Route
                  key={route.path}
                  path={route.path}
                  element={
                    <RequireSection route={route}>
                      {Screen ? (
                        <ScreenFrame>
                          <Screen />
                        </ScreenFrame>
                      ) : (
                        <PlaceholderPage route={route} />
                      )}
                    </RequireSection>
                  }
                />
              );
            })}
          </Route>
          <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
        </Routes>
      </AuthProvider>
    </BrowserRouter>
  );
}
