import { ActionIcon, Alert, Button, Checkbox, Code, Divider, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IDP_KINDS, idpInputSchema, type Idp, type IdpInput, type IdpKind } from '@pagewatch/contracts/identity-providers';
import { SecretInput } from '../../components/form/secret-input.tsx';
import { showServerErrors } from '../../components/form/server-errors.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { notifySuccess } from '../../lib/errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { fetchLocations, fetchRoles, IDP_LOCATIONS_KEY, IDP_ROLES_KEY, saveProvider, testProvider } from './api/identity-providers-api.ts';

type Mapping = { group: string; roleId: string | null; locationId: string | null };
const LDAP_FIELDS = ['url', 'bindDn', 'userBase', 'userFilter', 'groupBase', 'groupFilter', 'groupAttribute', 'loginAttribute', 'emailAttribute', 'lastNameAttribute', 'firstNameAttribute'] as const;
const OIDC_FIELDS = ['issuer', 'clientId', 'scopes', 'groupsClaim', 'loginClaim'] as const;
type Values = { kind: IdpKind; name: string; locationId: string | null; enabled: boolean; allowInternal: boolean; secret: string; startTls: boolean; caCert: string; mappings: Mapping[] } & Record<(typeof LDAP_FIELDS)[number] | (typeof OIDC_FIELDS)[number], string>;

const DEFAULTS = {
  url: '', bindDn: '', userBase: '', userFilter: '(uid={login})', groupBase: '', groupFilter: '(member={dn})', groupAttribute: 'cn', loginAttribute: 'uid',
  emailAttribute: 'mail', lastNameAttribute: 'sn', firstNameAttribute: 'givenName', issuer: '', clientId: '', scopes: 'openid email profile groups', groupsClaim: 'groups', loginClaim: 'preferred_username',
};

function valuesOf(p: Idp | null): Values {
  if (!p) return { kind: 'LDAP', name: '', locationId: null, enabled: true, allowInternal: false, secret: '', startTls: false, caCert: '', mappings: [], ...DEFAULTS };
  const { caCert, startTls, ...ldap } = p.ldap ?? { caCert: null, startTls: false };
  return {
    kind: p.kind, name: p.name, locationId: String(p.locationId), enabled: p.enabled, allowInternal: p.allowInternal, secret: '', startTls, caCert: caCert ?? '',
    mappings: p.mappings.map((m) => ({ group: m.group, roleId: String(m.roleId), locationId: String(m.locationId) })),
    ...DEFAULTS, ...ldap, ...(p.oidc ?? {}),
  };
}

const num = (v: string | null) => (v ? Number(v) : 0);
/** The body the API takes; an empty secret keeps the stored one (write-only). */
function inputOf(v: Values): IdpInput {
  const common = {
    name: v.name.trim(), locationId: num(v.locationId), enabled: v.enabled, allowInternal: v.allowInternal, secret: v.secret || null,
    mappings: v.mappings.map((m) => ({ group: m.group.trim(), roleId: num(m.roleId), locationId: num(m.locationId) })),
  };
  const pick = (keys: readonly (keyof Values)[]) => Object.fromEntries(keys.map((k) => [k, String(v[k]).trim()]));
  if (v.kind === 'OIDC') return { kind: 'OIDC', ...common, oidc: pick(OIDC_FIELDS) as IdpInput extends { oidc: infer O } ? O : never };
  return { kind: 'LDAP', ...common, ldap: { ...(pick(LDAP_FIELDS) as { url: string; bindDn: string; userBase: string; groupBase: string }), startTls: v.startTls, caCert: v.caCert.trim() || null } };
}

/** A contract field (`ldap.url`, `mappings.0.roleId`) as the form's. */
const fieldOf = (f: string) => f.replace(/^(ldap|oidc)\./, '');

/** A provider's form: its kind's settings, the secret write-only, the group mappings. */
export function ProviderDialog({ provider, canEdit, onClose, onSaved }: { provider: Idp | null; canEdit: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const locations = useQuery({ queryKey: IDP_LOCATIONS_KEY, queryFn: fetchLocations });
  const roles = useQuery({ queryKey: IDP_ROLES_KEY, queryFn: fetchRoles });
  const locationData = (locations.data?.pageRows ?? []).map((l) => ({ value: String(l.id), label: l.name }));
  const roleData = (roles.data?.pageRows ?? []).map((r) => ({ value: String(r.id), label: r.name }));
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: valuesOf(provider),
    validate: (v) => {
      const errors: Record<string, string> = {};
      for (const issue of idpInputSchema.safeParse(inputOf(v)).error?.issues ?? []) errors[fieldOf(issue.path.join('.'))] ??= t(issue.message);
      if (!provider?.secretSet && !v.secret) errors.secret ??= t('general.mandatory');
      return errors;
    },
  });
  const v = form.getValues();
  const save = useMutation({
    mutationFn: (values: Values) => saveProvider(provider?.id ?? null, inputOf(values)),
    onSuccess: () => {
      notifySuccess(provider ? 'updated' : 'created');
      onSaved();
      onClose();
    },
    onError: showServerErrors(form, fieldOf),
  });
  const cloud = useAuth().config.CLOUD;
  // In cloud mode the login page shows a location's providers at that location's own address only.
  const code = (locations.data?.pageRows ?? []).find((l) => String(l.id) === v.locationId)?.code;
  const signInAddress = cloud && code ? `${window.location.origin}/login-form?${new URLSearchParams({ at: code })}` : null;
  // The form's values tried against the directory or the provider; its answer says what was found, or why not.
  const tried = useMutation({ mutationFn: (values: Values) => testProvider(provider?.id ?? null, inputOf(values)), onError: showServerErrors(form, fieldOf) });
  const text = (name: keyof Values, opts: { required?: boolean; placeholder?: string } = {}) => (
    <TextInput key={name} label={t(`idp.field.${name}`)} required={opts.required} placeholder={opts.placeholder} maxLength={500} disabled={!canEdit} {...form.getInputProps(name)} />
  );
  return (
    <Modal opened onClose={onClose} size="xl" title={provider ? provider.name : t('idp.add')} data-testid="idp-dialog">
      <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select label={t('idp.kindLabel')} required disabled={!!provider} allowDeselect={false} data={IDP_KINDS.map((k) => ({ value: k, label: t(`idp.kind.${k}`) }))} {...form.getInputProps('kind')} />
            <TextInput label={t('idp.name')} description={t('idp.nameHint')} required maxLength={100} data-autofocus disabled={!canEdit} {...form.getInputProps('name')} />
            <Select label={t('idp.location')} description={t('idp.locationHint')} required searchable data={locationData} disabled={!canEdit} {...form.getInputProps('locationId')} data-testid="idp-location" />
          </SimpleGrid>
          {v.kind === 'LDAP' ? (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {text('url', { required: true, placeholder: 'ldaps://dc1.example.com:636' })}
                {text('bindDn', { required: true, placeholder: 'cn=pagewatch,ou=services,dc=example,dc=com' })}
                {text('userBase', { required: true, placeholder: 'ou=people,dc=example,dc=com' })}
                {text('userFilter', { required: true })}
                {text('groupBase', { required: true, placeholder: 'ou=groups,dc=example,dc=com' })}
                {text('groupFilter', { required: true })}
              </SimpleGrid>
              <SimpleGrid cols={{ base: 2, sm: 5 }}>
                {(['groupAttribute', 'loginAttribute', 'emailAttribute', 'lastNameAttribute', 'firstNameAttribute'] as const).map((f) => text(f, { required: true }))}
              </SimpleGrid>
              <Checkbox label={t('idp.field.startTls')} description={t('idp.startTlsHint')} disabled={!canEdit} {...form.getInputProps('startTls', { type: 'checkbox' })} />
              <Textarea label={t('idp.field.caCert')} description={t('idp.caCertHint')} autosize minRows={2} maxRows={6} maxLength={20000} disabled={!canEdit} styles={{ input: { fontFamily: 'monospace' } }} {...form.getInputProps('caCert')} />
            </>
          ) : (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {text('issuer', { required: true, placeholder: 'https://login.example.com/realms/acme' })}
                {text('clientId', { required: true })}
                {text('scopes', { required: true })}
                {text('groupsClaim', { required: true })}
                {text('loginClaim', { required: true })}
              </SimpleGrid>
              <Text size="sm">
                {t('idp.redirectUri')} {provider?.redirectUri ? <Code data-testid="idp-redirect-uri">{provider.redirectUri}</Code> : t('idp.redirectUriLater')}
              </Text>
            </>
          )}
          <Checkbox label={t('idp.allowInternal')} description={t('idp.allowInternalHint')} disabled={!canEdit} {...form.getInputProps('allowInternal', { type: 'checkbox' })} data-testid="idp-allow-internal" />
          <SecretInput
            label={t(v.kind === 'LDAP' ? 'idp.secret.LDAP' : 'idp.secret.OIDC')}
            isSet={provider?.secretSet}
            hints={{ stored: t('settings.passwordStored'), notSet: t('settings.passwordNotSet'), keep: t('idp.secretKeep') }}
            required={!provider?.secretSet}
            maxLength={1000}
            disabled={!canEdit}
            {...form.getInputProps('secret')}
          />
          <Checkbox label={t('idp.enabled')} disabled={!canEdit} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          {signInAddress && <Text size="sm">{t('idp.signInAddress')} <Code data-testid="idp-sign-in-address">{signInAddress}</Code></Text>}
          <Divider label={t('idp.mappings')} labelPosition="left" />
          <Text size="sm" c="dimmed">{t('idp.mappingsHint')}</Text>
          {v.mappings.map((_m, i) => (
            <Group key={i} align="flex-start" wrap="nowrap" data-testid={`idp-mapping-${i}`}>
              <TextInput style={{ flex: 2 }} aria-label={t('idp.group')} placeholder={t('idp.group')} maxLength={256} disabled={!canEdit} {...form.getInputProps(`mappings.${i}.group`)} />
              <Select style={{ flex: 1 }} aria-label={t('idp.role')} placeholder={t('idp.role')} data={roleData} disabled={!canEdit} {...form.getInputProps(`mappings.${i}.roleId`)} />
              <Select style={{ flex: 1 }} aria-label={t('idp.location')} placeholder={t('idp.location')} searchable data={locationData} disabled={!canEdit} {...form.getInputProps(`mappings.${i}.locationId`)} />
              <ActionIcon variant="subtle" color="red" mt={6} aria-label={t('idp.removeMapping')} disabled={!canEdit} onClick={() => form.removeListItem('mappings', i)}><IconTrash size={16} /></ActionIcon>
            </Group>
          ))}
          <Group>
            <Button size="xs" variant="default" leftSection={<IconPlus size={14} />} disabled={!canEdit} onClick={() => form.insertListItem('mappings', { group: '', roleId: null, locationId: v.locationId })} data-testid="idp-add-mapping">
              {t('idp.addMapping')}
            </Button>
          </Group>
          {tried.data && (
            <Alert color={tried.data.ok ? 'green' : 'red'} role="status" data-testid="idp-test-result">{tried.data.message}</Alert>
          )}
          <Group justify="flex-end">
            {canEdit && (
              <Button variant="default" mr="auto" loading={tried.isPending} data-testid="idp-test" onClick={() => { tried.reset(); if (!form.validate().hasErrors) tried.mutate(form.getValues()); }}>
                {t('idp.testConnection')}
              </Button>
            )}
            <Button variant="default" onClick={onClose}>{t('general.cancel')}</Button>
            {canEdit && <Button type="submit" loading={save.isPending} data-testid="idp-save">{t('settings.save')}</Button>}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
