import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams, text } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
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
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

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
export async function dictionariesRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['dictionaries'];
  const svc = ctx.dictionaries;

  app.get('/api/dictionaries', {
    config: { access: 'MNU_DICTIONARIES.READ' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(dictionaryListRowSchema) } },
  }, (req) => svc.list(callerOf(req), req.query) as never);

  app.get('/api/dictionaries/by-code/:code', {
    config: { access: 'user' },
    schema: { tags, params: codeParams, response: { 200: dictionarySchema } },
  }, (req) => svc.getByCode(callerOf(req), req.params.code));

  app.get('/api/dictionaries/:id', {
    config: { access: 'MNU_DICTIONARIES.READ' },
    schema: { tags, params: idParams, response: { 200: dictionarySchema } },
  }, (req) => svc.get(callerOf(req), req.params.id));

  app.post('/api/dictionaries', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, body: dictionaryInputSchema, response: { 200: dictionarySchema } },
  }, (req) => svc.create(callerOf(req), req.body));

  app.put('/api/dictionaries/:id', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, params: idParams, body: dictionaryInputSchema, response: { 200: dictionarySchema } },
  }, (req) => svc.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/dictionaries/:id', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await svc.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.get('/api/dictionaries/:id/items', {
    config: { access: 'MNU_DICTIONARIES.READ' },
    schema: { tags, params: idParams, response: { 200: pageResponseSchema(dictionaryItemRowSchema) } },
  }, (req) => svc.itemsOf(callerOf(req), req.params.id));

  app.post('/api/dictionaries/:id/attributes', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, params: idParams, body: dictionaryAttributeInputSchema, response: { 200: dictionaryAttributeSchema } },
  }, (req) => svc.createAttribute(callerOf(req), req.params.id, req.body));

  app.put('/api/dictionaries/:id/attributes/:attributeId', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, params: attributeParams, body: dictionaryAttributeInputSchema, response: { 200: dictionaryAttributeSchema } },
  }, (req) => svc.updateAttribute(callerOf(req), req.params.id, req.params.attributeId, req.body));

  app.delete('/api/dictionaries/:id/attributes/:attributeId', {
    config: { access: 'MNU_DICTIONARIES.EDIT' },
    schema: { tags, params: attributeParams },
  }, async (req, reply) => {
    await svc.removeAttribute(callerOf(req), req.params.id, req.params.attributeId);
    return reply.status(204).send();
  });

  // ---- items ----

  app.get('/api/dictionary-items/by-code/:code', {
    config: { access: 'user' },
    schema: { tags, params: codeParams, response: { 200: pageResponseSchema(dictionaryItemRowSchema) } },
  }, (req) => svc.lookup(callerOf(req), req.params.code));

  app.get('/api/dictionary-items/:id', {
    config: { access: 'user' },
    schema: { tags, params: idParams, response: { 200: dictionaryItemSchema } },
  }, (req) => svc.getItem(callerOf(req), req.params.id));

  app.post('/api/dictionary-items', {
    config: { access: 'user' },
    schema: { tags, body: dictionaryItemInputSchema, response: { 200: dictionaryItemSchema } },
  }, (req) => svc.createItem(callerOf(req), req.body));

  app.put('/api/dictionary-items/:id', {
    config: { access: 'user' },
    schema: { tags, params: idParams, body: dictionaryItemPatchSchema, response: { 200: dictionaryItemSchema } },
  }, (req) => svc.updateItem(callerOf(req), req.params.id, req.body));

  app.delete('/api/dictionary-items/:id', {
    config: { access: 'user' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await svc.removeItem(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.get('/api/dictionary-items/:id/attribute-values', {
    config: { access: 'user' },
    schema: { tags, params: idParams, response: { 200: pageResponseSchema(attributeValueSchema) } },
  }, (req) => svc.values(callerOf(req), req.params.id));

  app.post('/api/dictionary-items/:id/attribute-values', {
    config: { access: 'user' },
    schema: { tags, params: idParams, body: attributeValueInputSchema, response: { 200: pageResponseSchema(attributeValueSchema) } },
  }, (req) => svc.setValue(callerOf(req), req.params.id, req.body));

  app.delete('/api/dictionary-items/:id/attribute-values/:valueId', {
    config: { access: 'user' },
    schema: { tags, params: valueParams },
  }, async (req, reply) => {
    await svc.removeValue(callerOf(req), req.params.id, req.params.valueId);
    return reply.status(204).send();
  });
}
