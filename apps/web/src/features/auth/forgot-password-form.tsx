import { forgotPasswordSchema } from '@pagewatch/contracts/auth';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { errorMessage } from '../../lib/errors.ts';
import { forgotPassword } from './api/auth-api.ts';

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
      {mutation.isSuccess ? (
        <Alert color="green" role="status">
          {mutation.data.message}
        </Alert>
      ) : (
        <form onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v.login))} noValidate>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('login.forgotHint')}
            </Text>
            {mutation.isError && (
              <Alert color="red" role="alert">
                {errorMessage(mutation.error)}
              </Alert>
            )}
            <TextInput label={t('login.userNameOrEmail')} autoComplete="username" autoFocus required {...input('login')} />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              {t('login.sendLink')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component="button" type="button" size="sm" onClick={onBack} ta="center">
        {t('login.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
