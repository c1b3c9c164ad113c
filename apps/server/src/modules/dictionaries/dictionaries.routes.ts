import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams, text } from '@pagewatch/contracts/fields';
import { pageResponseSchema } from '@pagewatch/contracts/list';
import {
  attributeValueInputSchema,
  attributeValueSchema,
  dictionaryAttributeInputSchema,
  dictionaryAttributeSchema,
  dictionaryInputSchema,
  dictionaryItemInputSchema,
  dictionaryItemPatchSchema,
  dictionaryItemRowSchema,
  dictionaryItemSchema,
  dictionaryListRowSchema,
  dictionarySchema,
} from '@pagewatch/contracts/dictionaries';
import { routeTable } from '../../plugins/route-table.ts';
import type { DictionariesService } from './dictionaries.service.ts';

const id = idParams.shape.id;
const attributeParams = z.object({ id, attributeId: id });
const valueParams = z.object({ id, valueId: id });
const codeParams = z.object({ code: text(50).min(1) });

/**
 * Dictionaries (MNU_DICTIONARIES) and their items. Item routes are open to any signed-in user,
 * as lookups need: the service decides by the item's dictionary (locations: scope and
 * PAGE_LOCATION.EDIT; other items: MNU_DICTIONARIES.EDIT to change) and by whose the dictionary
 * is (a system one: everyone reads it, the default administrator changes it; another: its
 * location's scope reads and changes it).
 */
export async function dictionariesRoutes(root: FastifyInstance, dictionaries: DictionariesService) {
  const r = routeTable(root, ['dictionaries']);
  const svc = dictionaries;
  const [READ, EDIT] = ['MNU_DICTIONARIES.READ', 'MNU_DICTIONARIES.EDIT'] as const;

  r.list('/api/dictionaries', READ, dictionaryListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.get('/api/dictionaries/by-code/:code', 'user', { params: codeParams, reply: dictionarySchema }, (req, caller) => svc.getByCode(caller, req.params.code));
  r.get('/api/dictionaries/:id', READ, { params: idParams, reply: dictionarySchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post('/api/dictionaries', EDIT, { body: dictionaryInputSchema, reply: dictionarySchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/dictionaries/:id', EDIT, { params: idParams, body: dictionaryInputSchema, reply: dictionarySchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete('/api/dictionaries/:id', EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
  r.get('/api/dictionaries/:id/items', READ, { params: idParams, reply: pageResponseSchema(dictionaryItemRowSchema) }, (req, caller) => svc.itemsOf(caller, req.params.id));

  r.post('/api/dictionaries/:id/attributes', EDIT, { params: idParams, body: dictionaryAttributeInputSchema, reply: dictionaryAttributeSchema },
    (req, caller) => svc.createAttribute(caller, req.params.id, req.body));
  r.put('/api/dictionaries/:id/attributes/:attributeId', EDIT, { params: attributeParams, body: dictionaryAttributeInputSchema, reply: dictionaryAttributeSchema },
    (req, caller) => svc.updateAttribute(caller, req.params.id, req.params.attributeId, req.body));
  r.delete('/api/dictionaries/:id/attributes/:attributeId', EDIT, { params: attributeParams },
    (req, caller) => svc.removeAttribute(caller, req.params.id, req.params.attributeId));

  // ---- items ----

  r.get('/api/dictionary-items/by-code/:code', 'user', { params: codeParams, reply: pageResponseSchema(dictionaryItemRowSchema) }, (req, caller) => svc.lookup(caller, req.params.code));
  r.get('/api/dictionary-items/:id', 'user', { params: idParams, reply: dictionaryItemSchema }, (req, caller) => svc.getItem(caller, req.params.id));
  r.post('/api/dictionary-items', 'user', { body: dictionaryItemInputSchema, reply: dictionaryItemSchema }, (req, caller) => svc.createItem(caller, req.body));
  r.put('/api/dictionary-items/:id', 'user', { params: idParams, body: dictionaryItemPatchSchema, reply: dictionaryItemSchema }, (req, caller) => svc.updateItem(caller, req.params.id, req.body));
  r.delete('/api/dictionary-items/:id', 'user', { params: idParams }, (req, caller) => svc.removeItem(caller, req.params.id));

  r.get('/api/dictionary-items/:id/attribute-values', 'user', { params: idParams, reply: pageResponseSchema(attributeValueSchema) }, (req, caller) => svc.values(caller, req.params.id));
  r.post('/api/dictionary-items/:id/attribute-values', 'user', { params: idParams, body: attributeValueInputSchema, reply: pageResponseSchema(attributeValueSchema) },
    (req, caller) => svc.setValue(caller, req.params.id, req.body));
  r.delete('/api/dictionary-items/:id/attribute-values/:valueId', 'user', { params: valueParams }, (req, caller) => svc.removeValue(caller, req.params.id, req.params.valueId));
}
