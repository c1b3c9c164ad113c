import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { login } from './api/auth-api.ts';

// Signing in checks presence only: the rules for new logins and passwords must not lock out
// accounts created under older rules. (Checked by hand: the login form is in the start, which
// loads no zod.)
type Credentials = { login: string; password: string; remember: boolean };
const mandatory = (v: string) => (v ? null : 'general.mandatory');

interface LoginFormProps {
  onForgotPassword: () => void;
  onRequestDemo: () => void;
}

/** User name, password and remember. Success hands the session over; the guard then redirects. */
export function LoginForm({ onForgotPassword, onRequestDemo }: LoginFormProps) {
  const { t } = useTranslation();
  const { signIn, config } = useAuth();
  const form = useForm<Credentials>({
    initialValues: { login: '', password: '', remember: false },
    validate: { login: (v) => mandatory(v.trim()), password: mandatory },
  });
  const input = useTranslatedInput(form);
  const mutation = useMutation({
    mutationFn: (v: Credentials) => login(v.login.trim(), v.password, v.remember),
    onSuccess: signIn,
    meta: { silent: true }, // shown in the form, next to what the user typed
  });

  return (
    <form onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v))} noValidate>
      <Stack gap="sm">
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
        <Anchor component="button" type="button" size="sm" onClick={onRequestDemo} ta="center">
          {t('login.demoLink')}
        </Anchor>
      </Stack>
    </form>
  );
}
