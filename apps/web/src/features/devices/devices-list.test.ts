import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEVICE_FIELDS, deviceRowDefinition, devicesList } from '@pagewatch/contracts/devices';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { devicesColumns } from './devices-list.tsx';

/**
 * A key of the devices translations (`devices.flagHeader.newDevice30Flag`) in a language, or
 * undefined: the console's file with the texts shared with the server, as i18n.ts merges them.
 */
function text(lang: 'en' | 'ru', key: string): unknown {
  const file = fileURLToPath(new URL(`../../i18n/locales/${lang}/devices.json`, import.meta.url));
  const [area, ...path] = key.split('.');
  expect(area).toBe('devices');
  const texts = { ...(JSON.parse(readFileSync(file, 'utf8')) as object), ...SHARED_MESSAGES[lang].devices };
  return path.reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], texts);
}

const lookups = { options: { locationId: [], deviceType: [], colorType: [], paperFormat: [] }, label: () => '' };

describe('the devices grid from DEVICE_FIELDS', () => {
  it('has a column per listed field, each header translated in English and Russian', () => {
    const columns = devicesColumns(lookups as unknown as Parameters<typeof devicesColumns>[0]);
    expect(columns.map((c) => c.field)).toEqual(devicesList.columns.map((c) => c.field));
    expect(columns.map((c) => c.field).sort()).toEqual(Object.keys(DEVICE_FIELDS).filter((f) => f !== 'locationName').sort());
    for (const c of columns) {
      for (const lang of ['en', 'ru'] as const) expect(typeof text(lang, c.header), `${lang}: ${c.header}`).toBe('string');
    }
  });

  it('shows a column added to the definition with its header and no look of its own', () => {
    const { list } = deviceRowDefinition({ ...DEVICE_FIELDS, wasteToner: { schema: z.number().nullable(), shown: true } });
    const added = columnsFromList(list, {}).find((c) => c.field === 'wasteToner');
    expect(added).toMatchObject({ field: 'wasteToner', type: 'number', header: 'devices.wasteToner', hidden: false, sortable: true, filterable: true });
  });
});
