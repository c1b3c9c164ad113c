import { Alert, Checkbox, Fieldset, Group, MultiSelect, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { userFormSchema, userInputFromForm, type LocationRef, type User, type UserFormValues } from '@pagewatch/contracts/users';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useDeleteItem, useSaveItem } from '../../components/form/use-item-mutations.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { deleteUser, fetchManagedRoles, fetchUser, fetchUserLocations, saveUser, userKeys, userQueryKey, type LocationOption, type RoleOption } from './api/users-api.ts';
import { LocationsChangedDialog, NoRolesDialog } from './user-dialogs.tsx';
import { formFieldOf, formPermissions, isNewUserId, locationChange, withLoginFromEmail, type LocationChange } from './user-form-rules.ts';

/** `/user/{id}` (spec sections 2, 5, 6): a user's form; an id below 0 creates one. */
export function UserPage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const isNew = isNewUserId(idParam);
  const id = isNew ? null : Number(idParam);

  const user = useQuery({ queryKey: userQueryKey(id ?? -1), queryFn: () => fetchUser(id!), enabled: id !== null });
  const roles = useQuery({ queryKey: userKeys.managedRoles, queryFn: fetchManagedRoles });
  const locations = useQuery({ queryKey: userKeys.userLocations, queryFn: fetchUserLocations });

  const failed = user.error ?? roles.error ?? locations.error;
  const ready = (isNew || user.data) && roles.data && locations.data;

  return (
    <ItemPage kind={t('pages.user')} list={{ label: t('nav.users'), to: '/users' }} isNew={isNew} name={user.data?.login ?? idParam} error={failed} ready={!!ready}>
      {() => (
        <UserForm
          key={idParam}
          user={user.data ?? null}
          roleOptions={roles.data!.pageRows}
          locationOptions={locations.data!.pageRows}
        />
      )}
    </ItemPage>
  );
}

const emptyValues: UserFormValues = {
  login: '',
  email: '',
  password: '',
  passwordConfirmation: '',
  activeFlag: true,
  systemNotificationRecipient: false,
  lastName: '',
  firstName: '',
  middleName: '',
  locationIds: [],
  roleIds: [],
};

function valuesOf(u: User): UserFormValues {
  return {
    ...emptyValues,
    login: u.login,
    email: u.email,
    activeFlag: u.activeFlag,
    systemNotificationRecipient: u.systemNotificationRecipient,
    lastName: u.lastName,
    firstName: u.firstName ?? '',
    middleName: u.middleName ?? '',
    locationIds: u.locations.map((l) => String(l.id)),
    roleIds: u.grants.map((r) => r.id),
  };
}

type FormProps = { user: User | null; roleOptions: RoleOption[]; locationOptions: LocationOption[] };

function UserForm({ user, roleOptions, locationOptions }: FormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const { hasGrant, refreshUser, config } = useAuth();
  // Cloud mode: the login is the e-mail, so the form has no login of its own (spec section 1).
  const cloud = config.CLOUD;
  const isNew = user === null;
  const scope = useMemo(() => new Set(locationOptions.map((l) => l.id)), [locationOptions]);
  const can = formPermissions({ isNew, user, currentUserId: me.id, scope, canEdit: hasGrant('MNU_USERS.EDIT') });

  const form = useForm<UserFormValues>({
    initialValues: user ? valuesOf(user) : emptyValues,
    validate: withLoginFromEmail(schemaResolver(userFormSchema(isNew), { sync: true }), cloud),
  });
  const input = useTranslatedInput(form);

  const [noRoles, setNoRoles] = useState(false);
  const [changed, setChanged] = useState<{ change: LocationChange; id: number } | null>(null);

  // Roles the caller may hand out, plus any the user holds beyond them (shown, not changeable).
  const managed = new Set(roleOptions.map((r) => r.id));
  const shownRoles = [...roleOptions, ...(user?.grants ?? []).filter((r) => !managed.has(r.id))];
  const locationData = locationOptions.map((l) => ({ value: String(l.id), label: l.name }));
  const locationRef = (id: string): LocationRef => {
    const l = locationOptions.find((o) => String(o.id) === id);
    return { id: Number(id), code: l?.code ?? id, name: l?.name ?? id };
  };

  const backToList = (savedId: number) => void navigate(`/users?highlight=${savedId}`);

  const save = useSaveItem({
    save: (values: UserFormValues) => saveUser(user?.id ?? null, userInputFromForm(cloud ? { ...values, login: values.email } : values)),
    isNew,
    keyOf: userQueryKey,
    form,
    fieldOf: formFieldOf,
    then: (saved, values) => {
      if (saved.id === me.id) void refreshUser();
      const change = locationChange(user ? user.locations : saved.locations, values.locationIds.map(locationRef), saved.locations);
      if (change) setChanged({ change, id: saved.id });
      else backToList(saved.id);
    },
  });

  const remove = useDeleteItem({
    remove: () => deleteUser(user!.id),
    backTo: '/users',
    then: () => queryClient.removeQueries({ queryKey: userQueryKey(user!.id) }),
  });

  const submit = submitFocusingErrors(form, (values) => {
    if (!values.roleIds.length) return setNoRoles(true);
    save.mutate(values);
  });

  const toggleRole = (roleId: number, on: boolean) => {
    const current = form.getValues().roleIds;
    form.setFieldValue('roleIds', on ? [...current, roleId] : current.filter((r) => r !== roleId));
  };

  const noCommon = !isNew && !can.canSave && hasGrant('MNU_USERS.EDIT');
  const busy = save.isPending || remove.mutation.isPending;

  return (
    <form onSubmit={submit} noValidate data-testid="user-form">
      <Stack gap="md" maw={900}>
        {noCommon && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            {t('user.noCommonLocation')}
          </Alert>
        )}
        <Paper withBorder p="md">
          <Fieldset variant="unstyled" disabled={!hasGrant('MNU_USERS.EDIT') || busy}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {!cloud && <TextInput label={t('user.login')} required autoComplete="off" {...input('login')} />}
                <TextInput label={t('user.email')} required type="email" autoComplete="off" {...input('email')} />
                <PasswordInput
                  label={t('user.password')}
                  required={isNew}
                  description={isNew ? t('user.passwordRules') : t('user.passwordKeep')}
                  autoComplete="new-password"
                  {...input('password')}
                />
                <PasswordInput
                  label={t('user.passwordConfirmation')}
                  required={isNew}
                  description={'\u00a0'}
                  autoComplete="new-password"
                  {...input('passwordConfirmation')}
                />
                <TextInput label={t('user.lastName')} required {...input('lastName')} />
                <TextInput label={t('user.firstName')} {...input('firstName')} />
                <TextInput label={t('user.middleName')} {...input('middleName')} />
              </SimpleGrid>
              <Group gap="xl">
                <Checkbox label={t('user.activeFlag')} {...input('activeFlag', { type: 'checkbox' })} />
                <Checkbox label={t('user.systemNotificationRecipient')} {...input('systemNotificationRecipient', { type: 'checkbox' })} />
              </Group>
              <MultiSelect
                label={t('user.locations')}
                required
                searchable
                clearable
                data={locationData}
                nothingFoundMessage={t('user.noLocationFound')}
                {...input('locationIds')}
              />
              <Stack gap={6}>
                <Text size="sm" fw={500}>
                  {t('user.roles')}
                </Text>
                {!can.canEditRoles && user?.id === me.id && (
                  <Text size="xs" c="dimmed">
                    {t('user.ownRoles')}
                  </Text>
                )}
                <Group gap="lg">
                  {shownRoles.map((r) => (
                    <Checkbox
                      key={r.id}
                      // Roles come with the server's (English) name; known codes read in the console's language.
                      label={t(`user.roleNames.${r.code}`, { defaultValue: r.name })}
                      value={r.code}
                      checked={form.getValues().roleIds.includes(r.id)}
                      disabled={!can.canEditRoles || !managed.has(r.id)}
                      onChange={(e) => toggleRole(r.id, e.currentTarget.checked)}
                    />
                  ))}
                </Group>
              </Stack>
            </Stack>
          </Fieldset>
        </Paper>
        <FormActions area="user" canSave={can.canSave} saving={save.isPending} busy={busy} cancelTo="/users" onDelete={() => remove.ask()} deleteDisabled={!can.canDelete} />
      </Stack>

      <NoRolesDialog opened={noRoles} onClose={() => setNoRoles(false)} />
      <ConfirmDialog {...remove.dialog} title={t('user.deleteTitle')} message={t('user.deleteText', { login: user?.login ?? '' })} confirmLabel={t('user.delete')} />
      <LocationsChangedDialog
        change={changed?.change ?? null}
        onClose={() => {
          if (changed) backToList(changed.id);
          setChanged(null);
        }}
      />
    </form>
  );
}
