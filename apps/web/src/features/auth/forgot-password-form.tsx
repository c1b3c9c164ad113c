import { forgotPasswordSchema } from '@pagewatch/contracts/auth';
import { Anchor, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { forgotPassword } from './api/auth-api.ts';
import { AuthForm } from './auth-form.tsx';

/** Asks the server to e-mail a restore link for a user name or e-mail address. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { login: '' }, validate: schemaResolver(forgotPasswordSchema, { sync: true }) });
  const input = useTranslatedInput(form);
  const mutation = useMutation({
    mutationFn: (login: string) => forgotPassword(login.trim()),
    meta: { silent: true },
  });

  return (
    <Stack gap="sm">
      <AuthForm mutation={mutation} onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v.login))} hint={t('login.forgotHint')} submitLabel={t('login.sendLink')}>
        <TextInput label={t('login.userNameOrEmail')} autoComplete="username" autoFocus required {...input('login')} />
      </AuthForm>
      <Anchor component="button" type="button" size="sm" onClick={onBack} ta="center">
        {t('login.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
