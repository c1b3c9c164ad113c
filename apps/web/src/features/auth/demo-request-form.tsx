import { demoRequestSchema, type DemoRequest } from '@pagewatch/contracts/auth';
import { Anchor, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { requestDemo } from './api/auth-api.ts';
import { AuthForm } from './auth-form.tsx';

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
      <AuthForm mutation={mutation} onSubmit={submitFocusingErrors(form, (v) => mutation.mutate(v))} submitLabel={t('demo.submit')}>
        <TextInput label={t('demo.email')} type="email" autoComplete="email" autoFocus required {...input('email')} />
        <TextInput label={t('demo.fullName')} autoComplete="name" required {...input('fullName')} />
        <TextInput label={t('demo.phone')} type="tel" autoComplete="tel" required {...input('phone')} />
        <TextInput label={t('demo.company')} autoComplete="organization" required {...input('company')} />
        <Textarea label={t('demo.comment')} autosize minRows={2} maxRows={6} {...input('comment')} />
      </AuthForm>
      <Anchor component="button" type="button" size="sm" onClick={onBack} ta="center">
        {t('login.backToSignIn')}
      </Anchor>
    </Stack>
  );
}
