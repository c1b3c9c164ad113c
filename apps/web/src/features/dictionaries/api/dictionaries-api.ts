import type { Dictionary, DictionaryAttribute, DictionaryAttributeInput, DictionaryInput, DictionaryItem, DictionaryItemInput, DictionaryItemPatch, DictionaryItemRow } from '@pagewatch/contracts/dictionaries';
import type { PageResponse } from '@pagewatch/contracts/list';
import { api } from '../../../lib/api.ts';

export const dictionaryKey = (id: number) => ['dictionary', id] as const;
export const dictionaryItemsKey = (id: number) => ['dictionary-items', id] as const;
export const dictionaryItemKey = (id: number | null) => ['dictionary-item', id] as const;

export const fetchDictionary = (id: number) => api<Dictionary>(`/dictionaries/${id}`);
export const saveDictionary = (id: number | null, input: DictionaryInput) =>
  id === null ? api<Dictionary>('/dictionaries', { method: 'POST', body: input }) : api<Dictionary>(`/dictionaries/${id}`, { method: 'PUT', body: input });
export const deleteDictionary = (id: number) => api<void>(`/dictionaries/${id}`, { method: 'DELETE' });

export const fetchItems = (dictionaryId: number) => api<PageResponse<DictionaryItemRow>>(`/dictionaries/${dictionaryId}/items`);
export const fetchItem = (id: number) => api<DictionaryItem>(`/dictionary-items/${id}`);
export const createItem = (input: DictionaryItemInput) => api<DictionaryItem>('/dictionary-items', { method: 'POST', body: input });
export const updateItem = (id: number, patch: DictionaryItemPatch) => api<DictionaryItem>(`/dictionary-items/${id}`, { method: 'PUT', body: patch });
export const deleteItem = (id: number) => api<void>(`/dictionary-items/${id}`, { method: 'DELETE' });

export const saveAttribute = (dictionaryId: number, id: number | null, input: DictionaryAttributeInput) =>
  id === null
    ? api<DictionaryAttribute>(`/dictionaries/${dictionaryId}/attributes`, { method: 'POST', body: input })
    : api<DictionaryAttribute>(`/dictionaries/${dictionaryId}/attributes/${id}`, { method: 'PUT', body: input });
export const deleteAttribute = (dictionaryId: number, id: number) => api<void>(`/dictionaries/${dictionaryId}/attributes/${id}`, { method: 'DELETE' });
