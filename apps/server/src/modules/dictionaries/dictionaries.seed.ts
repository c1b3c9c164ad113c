import { and, eq } from 'drizzle-orm';
import { SYSTEM_DICTIONARIES } from '@pagewatch/contracts/dictionaries';
import type { Db } from '../../db/client.ts';
import { dictionaries, dictionaryAttributes, dictionaryAttributeValues, dictionaryItems } from './dictionaries.tables.ts';

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
