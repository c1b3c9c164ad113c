import type { AttributeValue, AttributeValueInput, Dictionary, DictionaryItemRow } from '@pagewatch/contracts/dictionaries';
import type { PageResponse } from '@pagewatch/contracts/list';
import { api } from '../../lib/api.ts';
import { prefetchLookup, useLookup } from '../../lib/lookups.ts';

/**
 * Dictionary data every screen may look up (items by dictionary code, a dictionary's
 * attributes). It goes through the lookup cache, which the server's DICTIONARY_CHANGED clears.
 */
export const fetchDictionaryByCode = (code: string) => api<Dictionary>(`/dictionaries/by-code/${encodeURIComponent(code)}`);
export const fetchItemsByCode = (code: string) => api<PageResponse<DictionaryItemRow>>(`/dictionary-items/by-code/${encodeURIComponent(code)}`);

export function useDictionaryItems(code: string) {
  return useLookup(`dictionary-items:${code}`, () => fetchItemsByCode(code));
}

export const prefetchDictionaryItems = (code: string) => prefetchLookup(`dictionary-items:${code}`, () => fetchItemsByCode(code));

export function useDictionaryByCode(code: string) {
  return useLookup(`dictionary:${code}`, () => fetchDictionaryByCode(code));
}

/** An item's name in the console's language (items carry an English and a Russian name). */
export const itemName = (item: { name: string; nameRu?: string | null }, lang: string) => (lang.startsWith('ru') && item.nameRu ? item.nameRu : item.name);

export const attributeValuesKey = (itemId: number) => ['attribute-values', itemId] as const;
export const fetchAttributeValues = (itemId: number) => api<PageResponse<AttributeValue>>(`/dictionary-items/${itemId}/attribute-values`);
export const setAttributeValue = (itemId: number, input: AttributeValueInput) =>
  api<PageResponse<AttributeValue>>(`/dictionary-items/${itemId}/attribute-values`, { method: 'POST', body: input });
export const deleteAttributeValue = (itemId: number, valueId: number) =>
  api<void>(`/dictionary-items/${itemId}/attribute-values/${valueId}`, { method: 'DELETE' });

/** STATUS items with their COLOR attribute: the one place a device status gets its colour. */
export function useStatusColors() {
  return useLookup('status-colors', async () => {
    const [dict, items] = await Promise.all([fetchDictionaryByCode('STATUS'), fetchItemsByCode('STATUS')]);
    const color = dict.attributes.find((a) => a.code === 'COLOR');
    const out: Record<string, { color: string; name: string; nameRu: string | null }> = {};
    await Promise.all(
      items.pageRows.map(async (i) => {
        const values = color ? (await fetchAttributeValues(i.id)).pageRows : [];
        const v = values.find((x) => x.attributeId === color?.id);
        out[i.code] = { color: v?.stringValue ?? 'gray', name: i.name, nameRu: i.nameRu };
      }),
    );
    return out;
  });
}
