import { unique, locationsSeed, type Fixture, type World } from './authorization-world.ts';

/**
 * The matrix's dictionaries (issue 39). A dictionary belongs to a location, and its items and
 * their values with it: a caller reads and changes those of its scope, never those of OUT (or of
 * DEFAULT, above it). A system dictionary is everyone's to read and the default administrator's
 * alone to change ('instance'), LOCATION's attributes included: they hold every customer's values.
 *
 * DICTIONARY_ROUTES are the routes' entries in ROUTES; DICTIONARY_VARIANTS their other cases (the
 * item routes' own entries in ROUTES are about locations, LOCATION's items).
 */

/** A dictionary owned by the location, made by root. */
const newDictionary = async (w: World, at: number): Promise<{ id: number; code: string }> =>
  w.asRoot('POST', '/api/dictionaries', { code: unique('MXD'), name: 'Matrix', location: { id: at } });
const dictionaryAt = async (w: World, at: number) => (await newDictionary(w, at)).id;
const attributeOf = async (w: World, dictionaryId: number): Promise<number> =>
  (await w.asRoot('POST', `/api/dictionaries/${dictionaryId}/attributes`, { code: unique('MXA'), name: 'A', valueType: 'S' })).id;
const itemOf = async (w: World, dictionaryId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/dictionary-items', { dictionaryId, code: unique('MXI'), name: 'Matrix item' })).id;
/** An item of a fresh dictionary at the location, with a value of the dictionary's attribute. */
const valueAt = async (w: World, dictionaryId: number) => {
  const [attributeId, item] = [await attributeOf(w, dictionaryId), await itemOf(w, dictionaryId)];
  const values = await w.asRoot('POST', `/api/dictionary-items/${item}/attribute-values`, { attributeId, stringValue: 'matrix' });
  return { item, attributeId, valueId: values.pageRows[0].id as number };
};
const systemId = async (w: World, code: string): Promise<number> => (await w.asRoot('GET', `/api/dictionaries/by-code/${code}`)).id;

export const DICTIONARY_ROUTES: Record<string, Fixture> = {
  'GET /api/dictionaries': {
    kind: 'list',
    seed: async (w) => ({
      inside: [await dictionaryAt(w, w.loc.IN_CHILD), await dictionaryAt(w, w.loc.IN), await systemId(w, 'PRINTER_TYPE'), await systemId(w, 'LOCATION')],
      outside: [await dictionaryAt(w, w.loc.OUT), await dictionaryAt(w, w.loc.DEFAULT)],
    }),
    request: () => ({ url: '/api/dictionaries?page=1000,1' }),
  },
  'GET /api/dictionaries/by-code/:code': { kind: 'item', request: async (w, at) => ({ url: `/api/dictionaries/by-code/${(await newDictionary(w, at)).code}` }) },
  'GET /api/dictionaries/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/dictionaries/${await dictionaryAt(w, at)}` }) },
  'GET /api/dictionaries/:id/items': { kind: 'item', request: async (w, at) => ({ url: `/api/dictionaries/${await dictionaryAt(w, at)}/items` }) },
  'POST /api/dictionaries': { kind: 'item', request: async (_w, at) => ({ url: '/api/dictionaries', payload: { code: unique('MXD'), name: 'Matrix', location: { id: at } } }) },
  'PUT /api/dictionaries/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/dictionaries/${await dictionaryAt(w, at)}`, payload: { code: unique('MXD'), name: 'Changed' } }) },
  'DELETE /api/dictionaries/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/dictionaries/${await dictionaryAt(w, at)}` }) },
  'POST /api/dictionaries/:id/attributes': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/dictionaries/${await dictionaryAt(w, at)}/attributes`, payload: { code: 'A', name: 'A', valueType: 'S' } }),
  },
  'PUT /api/dictionaries/:id/attributes/:attributeId': {
    kind: 'item',
    request: async (w, at) => {
      const id = await dictionaryAt(w, at);
      return { url: `/api/dictionaries/${id}/attributes/${await attributeOf(w, id)}`, payload: { code: 'B', name: 'B', valueType: 'N' } };
    },
  },
  // With its values: the dictionary's items', all of them at the dictionary's location.
  'DELETE /api/dictionaries/:id/attributes/:attributeId': {
    kind: 'item',
    ok: 204,
    request: async (w, at) => {
      const id = await dictionaryAt(w, at);
      return { url: `/api/dictionaries/${id}/attributes/${(await valueAt(w, id)).attributeId}` };
    },
  },
};

const EDIT = 'MNU_DICTIONARIES.EDIT';
const ofCustomer = 'an item of a dictionary at the location';
const ofSystem = 'an item of a system dictionary';

export const DICTIONARY_VARIANTS: Record<string, Record<string, Fixture>> = {
  'GET /api/dictionaries/by-code/:code': { 'a system dictionary': { kind: 'global', request: () => ({ url: '/api/dictionaries/by-code/PRINTER_TYPE' }) } },
  'GET /api/dictionaries/:id': { 'a system dictionary': { kind: 'global', request: async (w) => ({ url: `/api/dictionaries/${await systemId(w, 'PRINTER_TYPE')}` }) } },
  'GET /api/dictionaries/:id/items': {
    "LOCATION's: the caller's locations": { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/dictionaries/1/items' }) },
  },
  'PUT /api/dictionaries/:id': {
    'a system dictionary': {
      kind: 'instance',
      request: async (w) => ({ url: `/api/dictionaries/${await systemId(w, 'PRINTER_TYPE')}`, payload: { code: 'PRINTER_TYPE', name: 'Printer types', nameRu: 'Типы принтеров' } }),
    },
  },
  // LOCATION's attributes hold the values of every customer's locations.
  'POST /api/dictionaries/:id/attributes': {
    "LOCATION's": { kind: 'instance', request: () => ({ url: '/api/dictionaries/1/attributes', payload: { code: unique('MXA'), name: 'A', valueType: 'S' } }) },
  },
  'PUT /api/dictionaries/:id/attributes/:attributeId': {
    "LOCATION's": { kind: 'instance', request: async (w) => ({ url: `/api/dictionaries/1/attributes/${await attributeOf(w, 1)}`, payload: { code: unique('MXA'), name: 'B', valueType: 'S', versioned: true } }) },
  },
  'DELETE /api/dictionaries/:id/attributes/:attributeId': {
    "LOCATION's, with a value at OUT": {
      kind: 'instance',
      ok: 204,
      request: async (w) => {
        const attributeId = await attributeOf(w, 1);
        await w.asRoot('POST', `/api/dictionary-items/${w.loc.OUT}/attribute-values`, { attributeId, stringValue: 'out' });
        return { url: `/api/dictionaries/1/attributes/${attributeId}` };
      },
    },
  },
  'GET /api/dictionary-items/by-code/:code': {
    [ofCustomer]: { kind: 'item', request: async (w, at) => ({ url: `/api/dictionary-items/by-code/${(await newDictionary(w, at)).code}` }) },
    'a system dictionary': { kind: 'global', request: () => ({ url: '/api/dictionary-items/by-code/PRINTER_TYPE' }) },
  },
  'GET /api/dictionary-items/:id': { [ofCustomer]: { kind: 'item', request: async (w, at) => ({ url: `/api/dictionary-items/${await itemOf(w, await dictionaryAt(w, at))}` }) } },
  'GET /api/dictionary-items/:id/attribute-values': {
    [ofCustomer]: { kind: 'item', request: async (w, at) => ({ url: `/api/dictionary-items/${(await valueAt(w, await dictionaryAt(w, at))).item}/attribute-values` }) },
  },
  'POST /api/dictionary-items': {
    [ofCustomer]: { kind: 'item', needs: EDIT, request: async (w, at) => ({ url: '/api/dictionary-items', payload: { dictionaryId: await dictionaryAt(w, at), code: unique('MXI'), name: 'New' } }) },
    [ofSystem]: { kind: 'instance', request: async (w) => ({ url: '/api/dictionary-items', payload: { dictionaryId: await systemId(w, 'PRINTER_TYPE'), code: unique('MXI'), name: 'New' } }) },
  },
  'PUT /api/dictionary-items/:id': {
    [ofCustomer]: { kind: 'item', needs: EDIT, request: async (w, at) => ({ url: `/api/dictionary-items/${await itemOf(w, await dictionaryAt(w, at))}`, payload: { name: 'Renamed' } }) },
    [ofSystem]: { kind: 'instance', request: async (w) => ({ url: `/api/dictionary-items/${await itemOf(w, await systemId(w, 'PRINTER_TYPE'))}`, payload: { name: 'Renamed' } }) },
  },
  'DELETE /api/dictionary-items/:id': {
    [ofCustomer]: { kind: 'item', ok: 204, needs: EDIT, request: async (w, at) => ({ url: `/api/dictionary-items/${await itemOf(w, await dictionaryAt(w, at))}` }) },
    [ofSystem]: { kind: 'instance', ok: 204, request: async (w) => ({ url: `/api/dictionary-items/${await itemOf(w, await systemId(w, 'PRINTER_TYPE'))}` }) },
  },
  'POST /api/dictionary-items/:id/attribute-values': {
    [ofCustomer]: {
      kind: 'item',
      needs: EDIT,
      request: async (w, at) => {
        const id = await dictionaryAt(w, at);
        return { url: `/api/dictionary-items/${await itemOf(w, id)}/attribute-values`, payload: { attributeId: await attributeOf(w, id), stringValue: 'v' } };
      },
    },
    [ofSystem]: {
      kind: 'instance',
      request: async (w) => {
        const id = await systemId(w, 'PAPER_FORMAT');
        return { url: `/api/dictionary-items/${await itemOf(w, id)}/attribute-values`, payload: { attributeId: await attributeOf(w, id), stringValue: 'v' } };
      },
    },
  },
  'DELETE /api/dictionary-items/:id/attribute-values/:valueId': {
    [ofCustomer]: {
      kind: 'item',
      ok: 204,
      needs: EDIT,
      request: async (w, at) => {
        const v = await valueAt(w, await dictionaryAt(w, at));
        return { url: `/api/dictionary-items/${v.item}/attribute-values/${v.valueId}` };
      },
    },
    [ofSystem]: {
      kind: 'instance',
      ok: 204,
      request: async (w) => {
        const v = await valueAt(w, await systemId(w, 'PAPER_FORMAT'));
        return { url: `/api/dictionary-items/${v.item}/attribute-values/${v.valueId}` };
      },
    },
  },
};
