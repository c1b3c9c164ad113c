import { Alert, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { DayInput } from '../../components/form/day-input.tsx';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { LICENSE_MAX_DEVICES, type LicensableLocation, type License } from '@pagewatch/contracts/licenses';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormCard } from '../../components/form/form-card.tsx';
import { useDeleteItem, useSaveInput } from '../../components/form/use-item-mutations.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { deleteLicense, fetchDeviceCounts, fetchLicensable, fetchLicense, licenseKey, licenseKeys, saveLicense } from './api/licenses-api.ts';
import { InstanceLicensePanel } from './instance-license-panel.tsx';
import { formFieldOf, inputOf, newLicense, validateLicense, valuesOf, type LicenseFormValues } from './license-form-values.ts';

/**
 * `/license/{code}` (spec sections 2 and 4): DEFAULT is the instance license; `-1` (any number
 * below 0) a new license; another code the license of that location, or a new one for it.
 */
export function LicensePage() {
  const { t } = useTranslation();
  const { id: param = '-1' } = useParams();
  const isDefault = param === 'DEFAULT';
  const licensable = useQuery({ queryKey: licenseKeys.licensable, queryFn: fetchLicensable, enabled: !isDefault });
  const location = licensable.data?.pageRows.find((l) => l.code === param) ?? null;
  const unknown = !isDefault && licensable.data && !location && !/^-\d+$/.test(param);
  const licenseId = location?.licenseId ?? null;
  const license = useQuery({ queryKey: licenseKey(licenseId ?? -1), queryFn: () => fetchLicense(licenseId!), enabled: licenseId !== null });
  const title = isDefault ? t('licenses.instanceTitle') : licenseId === null ? t('pages.newItem', { item: t('pages.license') }) : `${t('pages.license')}: ${location!.name}`;
  const ready = isDefault || (!!licensable.data && (licenseId === null || !!license.data));

  return (
    <AppPage title={title} breadcrumbs={[{ label: t('nav.licenses'), to: '/licenses' }, { label: title }]}>
      {unknown ? (
        <Alert color="red" data-testid="license-unknown">{t('licenses.unknownLocation', { code: param })}</Alert>
      ) : (
        <LoadState error={licensable.error ?? license.error} ready={ready}>
          {() => (isDefault ? <InstanceLicensePanel /> : <LicenseForm key={param} license={license.data ?? null} locations={licensable.data!.pageRows} preset={location?.id ?? null} />)}
        </LoadState>
      )}
    </AppPage>
  );
}

function LicenseForm({ license, locations, preset }: { license: License | null; locations: LicensableLocation[]; preset: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const me = useCurrentUser();
  // Only the default administrator changes licenses (spec section 6); the server says so too.
  const canEdit = isDefaultAdmin(me) && hasGrant(license ? 'MNU_LICENSE.EDIT' : 'BTN_LICENSE_UPDATE.EXECUTE');
  const form = useForm<LicenseFormValues>({
    mode: 'controlled',
    initialValues: license ? valuesOf(license) : newLicense(preset),
    validate: (v) => validateLicense(v),
  });
  const input = useTranslatedInput(form);
  const locationId = form.getValues().locationId;
  // Choosing a location loads its device counts (spec section 4).
  const counts = useQuery({ queryKey: licenseKeys.deviceCounts(locationId), queryFn: () => fetchDeviceCounts(Number(locationId)), enabled: !!locationId });
  const choices = locations
    .filter((l) => l.licenseId === null || l.licenseId === license?.id)
    .map((l) => ({ value: String(l.id), label: `${l.name} (${l.code})` }));

  // The list and the locations still free for a license change with either.
  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: licenseKeys.list });
    void queryClient.invalidateQueries({ queryKey: licenseKeys.licensable });
  };
  const save = useSaveInput(license?.id ?? null, {
    save: saveLicense, inputOf, keyOf: licenseKey, form, fieldOf: formFieldOf,
    then: () => {
      refreshLists();
      void navigate('/licenses');
    },
  });
  const remove = useDeleteItem({ remove: () => deleteLicense(license!.id), backTo: '/licenses', toast: 'licenseDeleted', then: refreshLists });
  const busy = save.isPending || remove.mutation.isPending;

  return (
    <form onSubmit={submitFocusingErrors(form, (values) => save.mutate(values))} noValidate data-testid="license-form">
      <Stack gap="md" maw={900}>
        {!canEdit && <Alert color="blue" data-testid="license-read-only">{t('licenses.readOnly')}</Alert>}
        <FormCard disabled={!canEdit || busy}>
          <Select label={t('licenses.location')} required searchable allowDeselect={false} data={choices} data-testid="license-location" {...input('locationId')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DayInput required clearable={false} label={t('licenses.dateFrom')} data-testid="license-from" {...input('dateFrom')} />
            <DayInput required clearable={false} label={t('licenses.dateTo')} data-testid="license-to" {...input('dateTo')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <NumberInput label={t('licenses.deviceCount')} required min={1} max={LICENSE_MAX_DEVICES} clampBehavior="none" allowDecimal={false} data-testid="license-count" {...input('deviceCount')} />
            <TextInput label={t('licenses.activeDeviceCount')} readOnly value={counts.data?.activeDeviceCount ?? ''} data-testid="license-active" />
            <TextInput label={t('licenses.dbDeviceCount')} readOnly value={counts.data?.allDeviceCount ?? ''} data-testid="license-detected" />
          </SimpleGrid>
        </FormCard>
        <FormActions
          area="licenses" canSave={canEdit} saving={save.isPending} busy={busy} cancelTo="/licenses"
          onDelete={license && canEdit ? () => remove.ask() : undefined} testIds={{ save: 'license-save', delete: 'license-delete' }}
        />
      </Stack>
      <ConfirmDialog {...remove.dialog} title={t('licenses.deleteTitle')} message={t('licenses.deleteConfirm')} confirmLabel={t('licenses.delete')} />
    </form>
  );
}
