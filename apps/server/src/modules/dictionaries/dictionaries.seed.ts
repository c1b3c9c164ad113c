import { and, eq } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ATTRIBUTE_VALUE_TYPES } from '@pagewatch/contracts/dictionaries';
import type { Db } from '../../db/client.ts';
import { dictionaries, dictionaryAttributes, dictionaryAttributeValues, dictionaryItems } from '../../db/schema/dictionaries.ts';

const seedSchema = z.array(
  z.object({
    code: z.string(),
    name: z.string(),
    nameRu: z.string(),
    hierarchical: z.boolean().optional(),
    attributes: z.array(z.object({ code: z.string(), name: z.string(), valueType: z.enum(ATTRIBUTE_VALUE_TYPES), versioned: z.boolean().optional() })).optional(),
    items: z.array(z.object({ code: z.string(), name: z.string(), nameRu: z.string(), attributes: z.record(z.string(), z.string()).optional() })),
  }),
);

/**
 * The dictionaries a new installation has (system-dictionaries.json). Their codes are fixed
 * (other modules refer to them); their items may be renamed and extended. STATUS items carry
 * their colour as an attribute, so a status is defined once: code, name and colour together.
 */
const SYSTEM_DICTIONARIES = seedSchema.parse(JSON.parse(readFileSync(new URL('./system-dictionaries.json', import.meta.url), 'utf8')));

/**
 * Creates the system dictionaries, their attributes and items once. An existing installation
 * keeps whatever its users changed: only what is missing is added.
 */
export async function seedDictionaries(db: Db) {
  for (const d of SYSTEM_DICTIONARIES) {
    await db
      .insert(dictionaries)
      .values({ code: d.code, name: d.name, nameRu: d.nameRu, hierarchical: !!d.hierarchical, isSystem: true })
      .onConflictDoNothing();
    const [dict] = await db.select().from(dictionaries).where(eq(dictionaries.code, d.code));
    const attrIds = new Map<string, number>();
    for (const a of d.attributes ?? []) {
      const [row] = await db
        .insert(dictionaryAttributes)
        .values({ dictionaryId: dict.id, code: a.code, name: a.name, valueType: a.valueType, versioned: !!a.versioned })
        .onConflictDoNothing()
        .returning();
      if (row) attrIds.set(a.code, row.id);
    }
    for (const [sortOrder, item] of d.items.entries()) {
      const [row] = await db
        .insert(dictionaryItems)
        .values({ dictionaryId: dict.id, code: item.code, name: item.name, nameRu: item.nameRu, sortOrder })
        .onConflictDoNothing()
        .returning();
      const id = row?.id ?? (await db.select().from(dictionaryItems).where(and(eq(dictionaryItems.dictionaryId, dict.id), eq(dictionaryItems.code, item.code))))[0].id;
      for (const [code, value] of Object.entries(item.attributes ?? {})) {
        const attributeId = attrIds.get(code);
        // Only for an attribute created just now: values of existing ones are the users' to keep.
        if (attributeId) await db.insert(dictionaryAttributeValues).values({ attributeId, itemId: id, stringValue: value }).onConflictDoNothing();
      }
    }
  }
}
