import { NumberInput, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dictionaryItemInputSchema, type Dictionary, type DictionaryItem, type DictionaryItemRow } from '@pagewatch/contracts/dictionaries';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useSaveItem } from '../../components/form/use-item-mutations.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { LoadState } from '../../components/layout/load-state.tsx';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { notifySuccess } from '../../lib/errors.ts';
import { createItem, deleteItem, dictionaryItemKey, fetchItem, updateItem } from './api/dictionaries-api.ts';

type Values = { code: string; name: string; nameRu: string; parentId: string | null; sortOrder: number; description: string };
const schema = dictionaryItemInputSchema.pick({ code: true, name: true, nameRu: true, description: true });

type Props = { dictionary: Dictionary; itemId: number | null; items: DictionaryItemRow[]; canEdit: boolean; onSaved: (id: number | null) => void };

/** The "item detail" tab of a dictionary: one item's code, names, parent, order and description. */
export function ItemForm(props: Props) {
  const item = useQuery({ queryKey: dictionaryItemKey(props.itemId), queryFn: () => fetchItem(props.itemId!), enabled: props.itemId !== null });
  return (
    <LoadState error={item.error} ready={props.itemId === null || !!item.data}>
      {() => <ItemFormBody {...props} item={item.data ?? null} />}
    </LoadState>
  );
}

function ItemFormBody({ dictionary, item, items, canEdit, onSaved }: Props & { item: DictionaryItem | null }) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    initialValues: {
      code: item?.code ?? '',
      name: item?.name ?? '',
      nameRu: item?.nameRu ?? '',
      parentId: item?.parentId ? String(item.parentId) : null,
      sortOrder: item?.sortOrder ?? 0,
      description: item?.description ?? '',
    },
    validate: schemaResolver(schema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const save = useSaveItem({
    save: (v: Values) => {
      const body = { code: v.code, name: v.name, nameRu: v.nameRu || null, parentId: v.parentId ? Number(v.parentId) : null, sortOrder: Number(v.sortOrder) || 0, description: v.description || null };
      return item ? updateItem(item.id, body) : createItem({ ...body, dictionaryId: dictionary.id });
    },
    isNew: !item,
    keyOf: dictionaryItemKey,
    form,
    then: (saved) => onSaved(saved.id),
  });
  const remove = useMutation({
    mutationFn: () => deleteItem(item!.id),
    onSuccess: () => {
      notifySuccess('deleted');
      onSaved(null);
    },
  });
  const parents = items.filter((i) => i.id !== item?.id).map((i) => ({ value: String(i.id), label: `${i.name} (${i.code})` }));
  return (
    <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate data-testid="item-form">
      <Stack gap="sm" maw={900}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput label={t('dictionaries.code')} required disabled={!canEdit} {...input('code')} />
          <TextInput label={t('dictionaries.name')} required disabled={!canEdit} {...input('name')} />
          <TextInput label={t('dictionaries.nameRu')} disabled={!canEdit} {...input('nameRu')} />
          {dictionary.hierarchical && <Select label={t('dictionaries.parent')} data={parents} clearable searchable disabled={!canEdit} {...input('parentId')} />}
          <NumberInput label={t('dictionaries.sortOrder')} disabled={!canEdit} {...input('sortOrder')} />
        </SimpleGrid>
        <Textarea label={t('dictionaries.description')} autosize minRows={2} disabled={!canEdit} {...input('description')} />
        {canEdit && <FormActions area="dictionaries" canSave saving={save.isPending} busy={save.isPending} onDelete={item ? () => remove.mutate() : undefined} deleting={remove.isPending} />}
      </Stack>
    </form>
  );
}
