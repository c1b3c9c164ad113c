import { ActionIcon, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTRIBUTE_VALUE_TYPES, dictionaryAttributeInputSchema, type Dictionary, type DictionaryAttribute, type DictionaryAttributeInput } from '@pagewatch/contracts/dictionaries';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { AttributesTable } from '../../components/dictionary-items/attribute-values-panel.tsx';
import { deleteAttribute, dictionaryKey, saveAttribute } from './api/dictionaries-api.ts';

/** The "attributes" tab: value type (numeric, string, date, flag), code, name and the versioned flag. */
export function AttributesEditor({ dictionary, canEdit }: { dictionary: Dictionary; canEdit: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<DictionaryAttribute | 'new' | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dictionaryKey(dictionary.id) });
  const remove = useMutation({ mutationFn: (id: number) => deleteAttribute(dictionary.id, id), onSuccess: () => { notifySuccess('deleted'); refresh(); }, onError: notifyError });
  return (
    <Stack gap="sm">
      {canEdit && (
        <Group>
          <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('dictionaries.addAttribute')}</Button>
        </Group>
      )}
      <AttributesTable
        attributes={dictionary.attributes}
        actions={
          canEdit
            ? {
                width: 80,
                cell: (a) => (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={t('dictionaries.editAttribute')} onClick={() => setEditing(a)}><IconPencil size={16} /></ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={t('dictionaries.delete')} onClick={() => remove.mutate(a.id)}><IconTrash size={16} /></ActionIcon>
                  </Group>
                ),
              }
            : undefined
        }
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('dictionaries.attribute')} centered>
        {editing !== null && <AttributeForm dictionaryId={dictionary.id} attribute={editing === 'new' ? null : editing} onDone={() => { setEditing(null); refresh(); }} />}
      </Modal>
    </Stack>
  );
}

function AttributeForm({ dictionaryId, attribute, onDone }: { dictionaryId: number; attribute: DictionaryAttribute | null; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useForm<DictionaryAttributeInput>({
    initialValues: { code: attribute?.code ?? '', name: attribute?.name ?? '', valueType: attribute?.valueType ?? 'S', versioned: attribute?.versioned ?? false },
    validate: schemaResolver(dictionaryAttributeInputSchema, { sync: true }),
  });
  const input = useTranslatedInput(form);
  const save = useMutation({
    mutationFn: (v: DictionaryAttributeInput) => saveAttribute(dictionaryId, attribute?.id ?? null, v),
    onSuccess: () => {
      notifySuccess(attribute ? 'updated' : 'created');
      onDone();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.body?.details?.length) form.setErrors(Object.fromEntries(err.body.details.map((d) => [d.field, d.message])));
      notifyError(err);
    },
  });
  return (
    <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate>
      <Stack gap="sm">
        <Select
          label={t('dictionaries.valueType')}
          required
          data={ATTRIBUTE_VALUE_TYPES.map((v) => ({ value: v, label: t(`dictionaries.types.${v}`) }))}
          allowDeselect={false}
          {...input('valueType')}
        />
        <TextInput label={t('dictionaries.code')} required {...input('code')} />
        <TextInput label={t('dictionaries.name')} required {...input('name')} />
        <Checkbox label={t('dictionaries.versioned')} {...input('versioned', { type: 'checkbox' })} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{t('dictionaries.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
