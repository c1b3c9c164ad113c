import { ActionIcon, Badge, Button, Checkbox, Group, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttributeValue, AttributeValueInput, DictionaryAttribute } from '@pagewatch/contracts/dictionaries';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { SmallTable, type SmallColumn } from '../small-table.tsx';
import { attributeValuesKey, deleteAttributeValue, fetchAttributeValues, setAttributeValue } from './dictionary-items-api.ts';

const shown = (a: DictionaryAttribute | undefined, v: AttributeValue, yes: string, no: string) => {
  if (!a) return '';
  if (a.valueType === 'F') return v.flagValue ? yes : no;
  if (a.valueType === 'N') return v.numericValue ?? '';
  if (a.valueType === 'D') return v.dateValue ?? '';
  return v.stringValue ?? '';
};

/**
 * The "attribute values" tab of a dictionary item: each attribute's value; a versioned
 * attribute lists every value with the date it became valid, newest first.
 */
export function AttributeValuesPanel({ itemId, attributes, canEdit }: { itemId: number; attributes: DictionaryAttribute[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const values = useQuery({ queryKey: attributeValuesKey(itemId), queryFn: () => fetchAttributeValues(itemId) });
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const [attributeId, setAttributeId] = useState<string | null>(null);
  const [validFrom, setValidFrom] = useState('');
  const [raw, setRaw] = useState<string | number | boolean>('');
  const attr = attributeId ? byId.get(Number(attributeId)) : undefined;

  const done = () => void queryClient.invalidateQueries({ queryKey: attributeValuesKey(itemId) });
  const save = useMutation({
    mutationFn: () => {
      const input: AttributeValueInput = { attributeId: attr!.id, validFrom: attr!.versioned ? validFrom || null : null };
      if (attr!.valueType === 'S') input.stringValue = String(raw);
      if (attr!.valueType === 'N') input.numericValue = raw === '' ? null : Number(raw);
      if (attr!.valueType === 'D') input.dateValue = String(raw) || null;
      if (attr!.valueType === 'F') input.flagValue = Boolean(raw);
      return setAttributeValue(itemId, input);
    },
    onSuccess: () => {
      notifySuccess('updated');
      setRaw(attr?.valueType === 'F' ? false : '');
      done();
    },
    onError: notifyError,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteAttributeValue(itemId, id), onSuccess: () => { notifySuccess('deleted'); done(); }, onError: notifyError });

  const rows = values.data?.pageRows ?? [];
  return (
    <Stack gap="sm" data-testid="attribute-values">
      <SmallTable
        rows={rows}
        rowKey={(v) => v.id}
        empty={t('dictionaries.noValues')}
        columns={[
          {
            header: t('dictionaries.attribute'),
            cell: (v) => {
              const a = byId.get(v.attributeId);
              return <>{a?.name ?? v.attributeId} {a?.versioned && <Badge size="xs" variant="light">{t('dictionaries.versioned')}</Badge>}</>;
            },
          },
          { header: t('dictionaries.validFrom'), cell: (v) => v.validFrom ?? '—' },
          { header: t('dictionaries.value'), cell: (v) => String(shown(byId.get(v.attributeId), v, t('dictionaries.yes'), t('dictionaries.no'))) },
          canEdit && {
            width: 40,
            cell: (v) => (
              <ActionIcon variant="subtle" color="red" aria-label={t('dictionaries.deleteValue')} onClick={() => remove.mutate(v.id)}>
                <IconTrash size={16} />
              </ActionIcon>
            ),
          },
        ]}
      />
      {canEdit && attributes.length > 0 && (
        <Group align="flex-end" gap="xs">
          <Select
            label={t('dictionaries.attribute')}
            data={attributes.map((a) => ({ value: String(a.id), label: a.name }))}
            value={attributeId}
            onChange={(v) => {
              setAttributeId(v);
              setRaw(v && byId.get(Number(v))?.valueType === 'F' ? false : '');
            }}
            w={200}
          />
          {attr?.versioned && <TextInput type="date" label={t('dictionaries.validFrom')} value={validFrom} onChange={(e) => setValidFrom(e.currentTarget.value)} />}
          {attr?.valueType === 'S' && <TextInput label={t('dictionaries.value')} value={String(raw)} onChange={(e) => setRaw(e.currentTarget.value)} />}
          {attr?.valueType === 'N' && <NumberInput label={t('dictionaries.value')} value={raw === '' ? '' : Number(raw)} onChange={(v) => setRaw(v)} />}
          {attr?.valueType === 'D' && <TextInput type="date" label={t('dictionaries.value')} value={String(raw)} onChange={(e) => setRaw(e.currentTarget.value)} />}
          {attr?.valueType === 'F' && <Checkbox mb={8} label={t('dictionaries.value')} checked={Boolean(raw)} onChange={(e) => setRaw(e.currentTarget.checked)} />}
          <Button size="sm" disabled={!attr} loading={save.isPending} onClick={() => save.mutate()}>
            {t('dictionaries.setValue')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The "attributes" tab: the dictionary's attributes as a read-only table. */
export function AttributesTable({ attributes, actions }: { attributes: DictionaryAttribute[]; actions?: SmallColumn<DictionaryAttribute> }) {
  const { t } = useTranslation();
  return (
    <SmallTable
      testId="attributes-table"
      rows={attributes}
      rowKey={(a) => a.id}
      empty={t('dictionaries.noAttributes')}
      columns={[
        { header: t('dictionaries.code'), cell: (a) => a.code },
        { header: t('dictionaries.name'), cell: (a) => a.name },
        { header: t('dictionaries.valueType'), cell: (a) => t(`dictionaries.types.${a.valueType}`) },
        { header: t('dictionaries.versioned'), cell: (a) => (a.versioned ? t('dictionaries.yes') : t('dictionaries.no')) },
        actions ?? false,
      ]}
    />
  );
}
