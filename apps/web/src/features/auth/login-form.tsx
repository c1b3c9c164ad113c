import { useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { errorMessage } from '../../lib/errors.ts';
import type { IdpChoice } from '@pagewatch/contracts/identity-providers';
import { login, loginWithDirectory } from './api/auth-api.ts';
import { ProviderButtons, SsoReturn, useProviders, useSignInAt } from './sso-sign-in.tsx';

// Signing in checks presence only: the rules for new logins and passwords must not lock out
// accounts created under older rules. (Checked by hand: the login form is in the start, which
// loads no zod.)
type Credentials = { login: string; password: string; remember: boolean };
const mandatory = (v: string) => (v ? null : 'general.mandatory');

interface LoginFormProps {
  onForgotPassword: () => void;
  onRequestDemo: () => void;
}

/**
 * User name, password and remember, checked here or (after "Sign in with <directory>") by that
 * directory; below, the identity providers' buttons. Success hands the session over; the guard
 * then redirects.
 */
export function LoginForm({ onForgotPassword, onRequestDemo }: LoginFormProps) {
  const { t } = useTranslation();
  const { signIn, config } = useAuth();
  const form = useForm<Credentials>({
    initialValues: { login: '', password: '', remember: false },
    validate: { login: (v) => mandatory(v.trim()), password: mandatory },
  });
  const input = useTranslatedInput(form);
  const at = useSignInAt();
  const providers = useProviders(at).data ?? [];
  const [directory, setDirectory] = useState<IdpChoice | null>(null);
  const mutation = useMutation({
    mutationFn: (v: Credentials) => (directory ? loginWithDirectory(directory.id, v.login.trim(), v.password, v.remember, at) : login(v.login.trim(), v.password, v.remember)),
    onSuccess: signIn,
    meta: { silent: true }, // shown in the form, next to what the user typed
  });

  return (
    <form onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v))} noValidate>
      <Stack gap="sm">
        <SsoReturn />
        {directory && (
          <Group justify="space-between" wrap="nowrap" data-testid="sso-directory">
            <Text size="sm" fw={500}>{t('login.sso.withDirectory', { name: directory.name })}</Text>
            <Anchor component="button" type="button" size="sm" onClick={() => setDirectory(null)}>
              {t('login.sso.local')}
            </Anchor>
          </Group>
        )}
        {mutation.isError && (
          <Alert color="red" role="alert" data-testid="login-error">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        <TextInput
          // Cloud mode: the login is the e-mail (spec section 1).
          label={t(config.CLOUD ? 'login.email' : 'login.userName')}
          autoComplete="username"
          autoFocus
          required
          {...input('login')}
        />
        <PasswordInput label={t('login.password')} autoComplete="current-password" required {...input('password')} />
        <Group justify="space-between" wrap="nowrap">
          <Checkbox label={t('login.remember')} {...form.getInputProps('remember', { type: 'checkbox' })} />
          <Anchor component="button" type="button" size="sm" onClick={onForgotPassword}>
            {t('login.forgotLink')}
          </Anchor>
        </Group>
        <Button type="submit" loading={mutation.isPending} fullWidth mt="xs">
          {t('login.signIn')}
        </Button>
        <ProviderButtons providers={providers.filter((p) => p.id !== directory?.id)} remember={form.values.remember} at={at} onDirectory={(p) => { mutation.reset(); setDirectory(p); }} />
        <Anchor component="button" type="button" size="sm" onClick={onRequestDemo} ta="center">
          {t('login.demoLink')}
        </Anchor>
      </Stack>
    </form>
  );
}
