import { Anchor, Paper, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DEFAULT_LOCATION_CODE, dictionaryItemInputSchema, type DictionaryItem } from '@pagewatch/contracts/dictionaries';
import { AttributesTable, AttributeValuesPanel } from '../../components/dictionary-items/attribute-values-panel.tsx';
import { useDictionaryByCode } from '../../components/dictionary-items/dictionary-items-api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useDeleteItem, useSaveItem } from '../../components/form/use-item-mutations.ts';
import { useItemQuery } from '../../components/form/use-item-id.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { clearLookups, useLookup } from '../../lib/lookups.ts';
import { createLocation, deleteLocation, fetchLocation, fetchLocations, locationKey, updateLocation, type LocationRow } from './api/locations-api.ts';
import { LocationAgents, LocationDevices } from './location-lists.tsx';
import { RoomPlan } from './room-plan.tsx';

const formSchema = dictionaryItemInputSchema.pick({ code: true, name: true });

type Values = {
  code: string;
  name: string;
  parentId: string | null;
  description: string;
  addressIndex: string;
  city: string;
  street: string;
  house: string;
  floor: string;
  room: string;
  contactName: string;
  contactPosition: string;
  contactPhones: string;
};
const DETAIL_FIELDS = ['addressIndex', 'city', 'street', 'house', 'floor', 'room', 'contactName', 'contactPosition', 'contactPhones'] as const;

function valuesOf(item: DictionaryItem | null, parentId: number | null): Values {
  const l = item?.location;
  return {
    code: item?.code ?? '',
    name: item?.name ?? '',
    parentId: item ? (item.parentId === null ? null : String(item.parentId)) : parentId === null ? null : String(parentId),
    description: item?.description ?? '',
    ...(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, l?.[f] ?? ''])) as Record<(typeof DETAIL_FIELDS)[number], string>),
  };
}

/** Ids of a location and everything below it: not offered as its parent. */
function subtreeOf(id: number, rows: LocationRow[]): Set<number> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (r.parentId !== null && out.has(r.parentId) && !out.has(r.id)) (out.add(r.id), (grew = true));
  }
  return out;
}

/** `/location/{id}` (spec sections 2, 3, 5): a location's item form; an id below 0 creates one. */
export function LocationPage() {
  const { t } = useTranslation();
  const { idParam, isNew, item } = useItemQuery(locationKey, fetchLocation);
  const locations = useLookup('locations', fetchLocations);
  const dictionary = useDictionaryByCode('LOCATION');

  const failed = item.error ?? locations.error ?? dictionary.error;
  const ready = (isNew || item.data) && locations.data && dictionary.data;

  return (
    <ItemPage kind={t('pages.location')} list={{ label: t('nav.locations'), to: '/locations' }} isNew={isNew} name={item.data?.name ?? idParam} error={failed} ready={!!ready}>
      {() => (
        <LocationForm key={`${idParam}:${item.dataUpdatedAt}`} item={item.data ?? null} locations={locations.data!.pageRows} attributes={dictionary.data!.attributes} />
      )}
    </ItemPage>
  );
}

type FormProps = { item: DictionaryItem | null; locations: LocationRow[]; attributes: NonNullable<ReturnType<typeof useDictionaryByCode>['data']>['attributes'] };

function LocationForm({ item, locations, attributes }: FormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('PAGE_LOCATION.EDIT');
  const isNew = item === null;
  const dictionary = useDictionaryByCode('LOCATION');
  const defaultParent = locations.find((l) => l.parentId === null || !locations.some((p) => p.id === l.parentId))?.id ?? null;
  const form = useForm<Values>({ initialValues: valuesOf(item, defaultParent), validate: schemaResolver(formSchema, { sync: true }) });
  const input = useTranslatedInput(form);

  const excluded = item ? subtreeOf(item.id, locations) : new Set<number>();
  const parentData = locations.filter((l) => !excluded.has(l.id)).map((l) => ({ value: String(l.id), label: `${l.name} (${l.code})` }));
  const children = item ? locations.filter((l) => l.parentId === item.id) : [];

  const save = useSaveItem({
    save: (v: Values) => {
      const location = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, v[f] || null]));
      const body = { code: v.code, name: v.name, parentId: v.parentId === null ? null : Number(v.parentId), description: v.description || null, location };
      return isNew ? createLocation({ ...body, dictionaryId: dictionary.data!.id, sortOrder: 0 }) : updateLocation(item.id, body);
    },
    isNew,
    keyOf: locationKey,
    form,
    then: (saved) => {
      clearLookups();
      if (isNew) void navigate(`/location/${saved.id}`, { replace: true });
    },
  });
  const remove = useDeleteItem({ remove: () => deleteLocation(item!.id), backTo: '/locations', then: clearLookups });

  const isDefault = item?.code === DEFAULT_LOCATION_CODE;
  const busy = save.isPending || remove.mutation.isPending;
  const submit = submitFocusingErrors(form, (v) => {
    if (v.parentId === null && isNew) return form.setFieldError('parentId', t('locations.parentRequired'));
    save.mutate(v);
  });

  return (
    <form onSubmit={submit} noValidate data-testid="location-form">
      <Stack gap="md">
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput label={t('locations.code')} required maxLength={50} disabled={!canEdit || isDefault} {...input('code')} />
            <TextInput label={t('locations.name')} required maxLength={250} disabled={!canEdit} {...input('name')} />
            <Select
              label={t('locations.parent')}
              data={parentData}
              searchable
              clearable={!isNew}
              disabled={!canEdit || (isDefault && item?.parentId === null)}
              {...input('parentId')}
            />
          </SimpleGrid>
          {canEdit && (
            <FormActions area="locations" canSave={!remove.mutation.isPending} saving={save.isPending} busy={busy} mt="md" onDelete={isNew ? undefined : () => remove.ask()} deleteDisabled={isDefault} />
          )}
        </Paper>

        <Tabs defaultValue="detail" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="detail">{t('locations.tabs.detail')}</Tabs.Tab>
            <Tabs.Tab value="items" disabled={isNew}>{t('locations.tabs.items')}</Tabs.Tab>
            <Tabs.Tab value="attributes">{t('locations.tabs.attributes')}</Tabs.Tab>
            <Tabs.Tab value="values" disabled={isNew}>{t('locations.tabs.values')}</Tabs.Tab>
            <Tabs.Tab value="agents" disabled={isNew}>{t('locations.tabs.agents')}</Tabs.Tab>
            <Tabs.Tab value="devices" disabled={isNew}>{t('locations.tabs.devices')}</Tabs.Tab>
            <Tabs.Tab value="plan" disabled={isNew}>{t('locations.tabs.plan')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="detail" pt="md">
            <Stack gap="sm" maw={900}>
              <Textarea label={t('locations.description')} autosize minRows={3} disabled={!canEdit} {...input('description')} />
              <Text fw={600} size="sm">{t('locations.address')}</Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput label={t('locations.addressIndex')} maxLength={20} disabled={!canEdit} {...input('addressIndex')} />
                <TextInput label={t('locations.city')} maxLength={250} disabled={!canEdit} {...input('city')} />
                <TextInput label={t('locations.street')} maxLength={250} disabled={!canEdit} {...input('street')} />
                <TextInput label={t('locations.house')} maxLength={50} disabled={!canEdit} {...input('house')} />
                <TextInput label={t('locations.floor')} maxLength={50} disabled={!canEdit} {...input('floor')} />
                <TextInput label={t('locations.room')} maxLength={50} disabled={!canEdit} {...input('room')} />
              </SimpleGrid>
              <Text fw={600} size="sm">{t('locations.contact')}</Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput label={t('locations.contactName')} maxLength={250} disabled={!canEdit} {...input('contactName')} />
                <TextInput label={t('locations.contactPosition')} maxLength={250} disabled={!canEdit} {...input('contactPosition')} />
                <TextInput label={t('locations.contactPhones')} maxLength={250} disabled={!canEdit} {...input('contactPhones')} />
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="items" pt="md">
            {children.length === 0 ? (
              <Text c="dimmed" size="sm">{t('locations.noChildren')}</Text>
            ) : (
              <Stack gap={4} data-testid="location-children">
                {children.map((c) => (
                  <Anchor key={c.id} component={Link} to={`/location/${c.id}`} size="sm">{c.name} ({c.code})</Anchor>
                ))}
              </Stack>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="attributes" pt="md">
            <AttributesTable attributes={attributes} />
          </Tabs.Panel>
          {item && (
            <>
              <Tabs.Panel value="values" pt="md">
                <AttributeValuesPanel itemId={item.id} attributes={attributes} canEdit={canEdit} />
              </Tabs.Panel>
              <Tabs.Panel value="agents" pt="md">
                <LocationAgents locationId={item.id} />
              </Tabs.Panel>
              <Tabs.Panel value="devices" pt="md">
                <LocationDevices locationId={item.id} />
              </Tabs.Panel>
              <Tabs.Panel value="plan" pt="md">
                <RoomPlan locationId={item.id} canEdit={canEdit} />
              </Tabs.Panel>
            </>
          )}
        </Tabs>
      </Stack>
      <ConfirmDialog {...remove.dialog} title={t('locations.deleteTitle')} message={t('locations.deleteConfirm', { name: item?.name ?? '' })} confirmLabel={t('locations.delete')} />
    </form>
  );
}
