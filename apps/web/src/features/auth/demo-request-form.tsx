import { demoRequestSchema, type DemoRequest } from '@pagewatch/contracts/auth';
import { Alert, Anchor, Button, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { errorMessage } from '../../lib/errors.ts';
import { requestDemo } from './api/auth-api.ts';

/** The demo-account request: e-mail, full name, phone, company and comment. */
export function DemoRequestForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const form = useForm<DemoRequest>({
    initialValues: { email: '', fullName: '', phone: '', company: '', comment: '' },
    validate: schemaResolver(demoRequestSchema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const mutation = useMutation({
    mutationFn: (v: DemoRequest) => requestDemo(demoRequestSchema.parse(v)),
    meta: { silent: true },
  });

  return (
    <Stack gap="sm">
      {mutation.isSuccess ? (
        <Alert color="green" role="status">
          {mutation.data.message}
        </Alert>
      ) : (
        <form onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v))} noValidate>
          <Stack gap="sm">
            {mutation.isError && (
              <Alert color="red" role="alert">
                {errorMessage(mutation.error)}
              </Alert>
            )}
            <TextInput label={t('demo.email')} type="email" autoComplete="email" autoFocus required {...input('email')} />
            <TextInput label={t('demo.fullName')} autoComplete="name" required {...input('fullName')} />
            <TextInput label={t('demo.phone')} type="tel" autoComplete="tel" required {...input('phone')} />
            <TextInput label={t('demo.company')} autoComplete="organization" required {...input('company')} />
            <Textarea label={t('demo.comment')} autosize minRows={2} maxRows={6} {...input('comment')} />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              {t('demo.submit')}
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
