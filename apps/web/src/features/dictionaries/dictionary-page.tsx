import { Button, Checkbox, Paper, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isDefaultAdmin } from '@pagewatch/contracts/users';
import { dictionaryInputSchema, LOCATION_DICTIONARY, type Dictionary, type DictionaryInput, type DictionaryItemRow } from '@pagewatch/contracts/dictionaries';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { itemName } from '../../components/dictionary-items/dictionary-items-api.ts';
import { AttributeValuesPanel } from '../../components/dictionary-items/attribute-values-panel.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useDeleteItem, useSaveItem } from '../../components/form/use-item-mutations.ts';
import { useItemQuery } from '../../components/form/use-item-id.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { ItemPage } from '../../components/layout/item-page.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { deleteDictionary, dictionaryItemsKey, dictionaryKey, fetchDictionary, fetchItems, saveDictionary } from './api/dictionaries-api.ts';
import { AttributesEditor } from './attributes-editor.tsx';
import { ItemForm } from './item-form.tsx';

const itemColumns: GridColumn<DictionaryItemRow>[] = [
  { field: 'code', type: 'string', sortable: true, filterable: true, header: 'dictionaries.code', width: 180 },
  { field: 'name', type: 'string', sortable: true, filterable: true, header: 'dictionaries.name', width: 260 },
  { field: 'nameRu', type: 'string', sortable: true, filterable: true, header: 'dictionaries.nameRu', width: 260 },
  { field: 'sortOrder', type: 'number', sortable: true, header: 'dictionaries.sortOrder', width: 100, hidden: true },
];

/** `/dictionary/{id}` (spec sections 2, 3): a dictionary with its items, attributes and values; an id below 0 creates one. */
export function DictionaryPage() {
  const { t, i18n } = useTranslation();
  const { idParam, isNew, item: dictionary } = useItemQuery(dictionaryKey, fetchDictionary);
  return (
    <ItemPage
      kind={t('pages.dictionary')}
      list={{ label: t('nav.dictionaries'), to: '/dictionaries' }}
      isNew={isNew}
      name={dictionary.data ? itemName(dictionary.data, i18n.language) : idParam}
      error={dictionary.error}
      ready={isNew || !!dictionary.data}
    >
      {() => <DictionaryForm key={`${idParam}:${dictionary.dataUpdatedAt}`} dictionary={dictionary.data ?? null} />}
    </ItemPage>
  );
}

function DictionaryForm({ dictionary }: { dictionary: Dictionary | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const me = useCurrentUser();
  // A system dictionary is every customer's: only the default administrator changes it.
  const canEdit = hasGrant('MNU_DICTIONARIES.EDIT') && (!dictionary?.isSystem || isDefaultAdmin(me));
  const isNew = dictionary === null;
  const isLocation = dictionary?.code === LOCATION_DICTIONARY;
  const form = useForm<DictionaryInput>({
    initialValues: { code: dictionary?.code ?? '', name: dictionary?.name ?? '', nameRu: dictionary?.nameRu ?? '', hierarchical: dictionary?.hierarchical ?? false },
    validate: schemaResolver(dictionaryInputSchema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const [tab, setTab] = useState<string | null>('items');
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const items = useQuery({ queryKey: dictionaryItemsKey(dictionary?.id ?? -1), queryFn: () => fetchItems(dictionary!.id), enabled: !!dictionary });

  const save = useSaveItem({
    save: (v: DictionaryInput) => saveDictionary(dictionary?.id ?? null, v),
    isNew,
    keyOf: dictionaryKey,
    form,
    then: (saved) => {
      if (isNew) void navigate(`/dictionary/${saved.id}`, { replace: true });
    },
  });
  // The dictionary screen's Delete runs at once, without the dialog (as it always has).
  const remove = useDeleteItem({ remove: () => deleteDictionary(dictionary!.id), backTo: '/dictionaries' });

  const open = (row: DictionaryItemRow) => {
    if (isLocation) return void navigate(`/location/${row.id}`);
    setSelected(row.id);
    setTab('detail');
  };
  const itemSaved = (id: number | null) => {
    void queryClient.invalidateQueries({ queryKey: dictionaryItemsKey(dictionary!.id) });
    setSelected(id);
    if (id === null) setTab('items');
  };

  return (
    <Stack gap="md">
      <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate data-testid="dictionary-form">
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput label={t('dictionaries.code')} required disabled={!canEdit || dictionary?.isSystem} {...input('code')} />
            <TextInput label={t('dictionaries.name')} required disabled={!canEdit} {...input('name')} />
            <TextInput label={t('dictionaries.nameRu')} disabled={!canEdit} {...input('nameRu')} />
          </SimpleGrid>
          <Checkbox mt="sm" label={t('dictionaries.hierarchical')} disabled={!canEdit || isLocation} {...input('hierarchical', { type: 'checkbox' })} />
          {canEdit && (
            <FormActions
              area="dictionaries" canSave saving={save.isPending} busy={save.isPending} mt="md"
              onDelete={isNew || dictionary.isSystem ? undefined : () => remove.mutation.mutate()} deleting={remove.mutation.isPending}
            />
          )}
        </Paper>
      </form>

      {dictionary && (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="items">{t('dictionaries.tabs.items')}</Tabs.Tab>
            <Tabs.Tab value="attributes">{t('dictionaries.tabs.attributes')}</Tabs.Tab>
            <Tabs.Tab value="detail" disabled={selected === null}>{t('dictionaries.tabs.detail')}</Tabs.Tab>
            <Tabs.Tab value="values" disabled={typeof selected !== 'number'}>{t('dictionaries.tabs.values')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="items" pt="md">
            <DataGrid<DictionaryItemRow>
              gridKey="gridDictionaryItems"
              columns={itemColumns}
              data={items.data?.pageRows ?? []}
              loading={items.isFetching}
              error={items.error}
              getRowId={(r) => r.id}
              getParentId={dictionary.hierarchical ? (r) => r.parentId : undefined}
              defaultExpanded
              onRowOpen={(row) => open(row)}
              height={420}
              toolbar={
                isLocation ? (
                  <Text size="sm" c="dimmed">{t('dictionaries.locationsHint')}</Text>
                ) : (
                  canEdit && (
                    <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => { setSelected('new'); setTab('detail'); }}>
                      {t('dictionaries.addItem')}
                    </Button>
                  )
                )
              }
            />
          </Tabs.Panel>
          <Tabs.Panel value="attributes" pt="md">
            <AttributesEditor dictionary={dictionary} canEdit={canEdit} />
          </Tabs.Panel>
          <Tabs.Panel value="detail" pt="md">
            {selected !== null && (
              <ItemForm key={String(selected)} dictionary={dictionary} itemId={selected === 'new' ? null : selected} items={items.data?.pageRows ?? []} canEdit={canEdit} onSaved={itemSaved} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="values" pt="md">
            {typeof selected === 'number' && <AttributeValuesPanel itemId={selected} attributes={dictionary.attributes} canEdit={canEdit} />}
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
