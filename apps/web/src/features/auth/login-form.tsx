import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { login } from './api/auth-api.ts';

// Signing in checks presence only: the rules for new logins and passwords must not lock out
// accounts created under older rules.
const schema = z.object({
  login: z.string().trim().min(1, 'general.mandatory'),
  password: z.string().min(1, 'general.mandatory'),
  remember: z.boolean(),
});

interface LoginFormProps {
  onForgotPassword: () => void;
  onRequestDemo: () => void;
}

/** User name, password and remember. Success hands the session over; the guard then redirects. */
export function LoginForm({ onForgotPassword, onRequestDemo }: LoginFormProps) {
  const { t } = useTranslation();
  const { signIn, config } = useAuth();
  const form = useForm({
    initialValues: { login: '', password: '', remember: false },
    validate: schemaResolver(schema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const mutation = useMutation({
    mutationFn: (v: z.infer<typeof schema>) => login(v.login.trim(), v.password, v.remember),
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
