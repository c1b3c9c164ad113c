import { restorePasswordSchema } from '@pagewatch/contracts/auth';
import { Alert, Anchor, Center, Loader, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { ApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { LOGIN_PATH } from '../../lib/redirect.ts';
import { authKeys, checkRestoreToken, restorePassword } from './api/auth-api.ts';
import { AuthForm } from './auth-form.tsx';
import { PublicCard } from './public-card.tsx';

/** `/restore-password/{token}`: the link from the e-mail; sets a new password once. */
export function RestorePasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const check = useQuery({
    queryKey: authKeys.restoreToken(token),
    queryFn: () => checkRestoreToken(token),
    enabled: token !== '',
    meta: { silent: true },
  });
  const form = useForm({
    initialValues: { password: '', passwordConfirmation: '' },
    validate: schemaResolver(restorePasswordSchema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const mutation = useMutation({
    mutationFn: (v: { password: string; passwordConfirmation: string }) =>
      restorePassword(token, v.password, v.passwordConfirmation),
    meta: { silent: true },
  });

  const backLink = (
    <Anchor component={Link} to={LOGIN_PATH} size="sm" ta="center">
      {t('login.backToSignIn')}
    </Anchor>
  );

  let body;
  if (token && check.isPending) {
    body = (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    );
  } else if (check.isError && !(check.error instanceof ApiError && check.error.status === 400)) {
    // Not a verdict on the link: the server could not be asked.
    body = (
      <Alert color="red" role="alert">
        {errorMessage(check.error)}
      </Alert>
    );
  } else if (!token || check.isError || !check.data?.valid) {
    body = (
      <Alert color="red" role="alert">
        {t('restore.invalidLink')}
      </Alert>
    );
  } else {
    body = (
      <AuthForm mutation={mutation} onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v))} hint={t('restore.rules')} submitLabel={t('restore.submit')}>
        <PasswordInput label={t('restore.password')} autoComplete="new-password" autoFocus required {...input('password')} />
        <PasswordInput label={t('restore.passwordConfirmation')} autoComplete="new-password" required {...input('passwordConfirmation')} />
      </AuthForm>
    );
  }

  return (
    <PublicCard title={t('restore.title')}>
      <Stack gap="sm">
        {body}
        {backLink}
      </Stack>
    </PublicCard>
  );
}
