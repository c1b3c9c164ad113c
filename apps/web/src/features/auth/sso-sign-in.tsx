import { useEffect, useRef } from 'react';
import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { IdpChoice } from '@pagewatch/contracts/identity-providers';
import { SSO_ERRORS } from '@pagewatch/contracts/sso-errors';
import { useAuth } from '../../lib/auth-context.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { listProviders, oidcStartUrl, redeemSsoTicket, ssoProvidersKey } from './api/auth-api.ts';
/** The location whose sign-in address this is (`/login-form?at=ACME`): in cloud mode, whose providers the page shows. */
export const useSignInAt = () => useSearchParams()[0].get('at')?.trim() || null;

export const useProviders = (at: string | null) => useQuery({ queryKey: ssoProvidersKey(at), queryFn: () => listProviders(at), staleTime: 60_000, meta: { silent: true } });

/**
 * The OpenID sign-in's return to the login page (issue 55): `?sso-ticket=` is traded for the
 * session at once, `?sso-error=` says why there is none, in the user's language.
 */
export function SsoReturn() {
  const { t } = useTranslation();
  const { signIn } = useAuth();
  const [params, setParams] = useSearchParams();
  const ticket = params.get('sso-ticket');
  const error = params.get('sso-error');
  const mutation = useMutation({ mutationFn: (v: { ticket: string; remember: boolean }) => redeemSsoTicket(v.ticket, v.remember), onSuccess: signIn, meta: { silent: true } });
  const traded = useRef(false);
  useEffect(() => {
    if (!ticket || traded.current) return;
    traded.current = true;
    mutation.mutate({ ticket, remember: params.get('remember') === '1' });
    // The ticket is spent either way: out of the address (and of the history's next entry).
    setParams((p) => {
      p.delete('sso-ticket');
      p.delete('remember');
      return p;
    }, { replace: true });
  }, [ticket, params, setParams, mutation]);
  if (mutation.isError) return <Alert color="red" role="alert" data-testid="sso-error">{errorMessage(mutation.error)}</Alert>;
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="sso-error">
      {t(`login.sso.${(SSO_ERRORS as readonly string[]).includes(error) ? error : 'invalid'}`)}
    </Alert>
  );
}

/** "Sign in with <provider>": an OpenID provider's button leaves for it; a directory's puts its name on the form. */
export function ProviderButtons({ providers, remember, at, onDirectory }: { providers: IdpChoice[]; remember: boolean; at: string | null; onDirectory: (p: IdpChoice) => void }) {
  const { t } = useTranslation();
  if (!providers.length) return null;
  return (
    <Stack gap="xs">
      <Divider label={t('login.sso.or')} labelPosition="center" />
      {providers.map((p) => (
        <Button
          key={p.id}
          variant="default"
          fullWidth
          data-testid={`sso-${p.id}`}
          onClick={() => (p.kind === 'OIDC' ? window.location.assign(oidcStartUrl(p.id, remember, at)) : onDirectory(p))}
        >
          {t('login.sso.signInWith', { name: p.name })}
        </Button>
      ))}
    </Stack>
  );
}
