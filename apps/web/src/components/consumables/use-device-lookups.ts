import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageResponse } from '@pagewatch/contracts/list';
import { itemName, prefetchDictionaryItems, useDictionaryItems } from '../dictionary-items/dictionary-items-api.ts';
import type { LookupOption } from '../data-grid/grid-types.ts';
import { api } from '../../lib/api.ts';
import { prefetchLookup, useLookup } from '../../lib/lookups.ts';

type LocationRow = { id: number; code: string; name: string };
export type DeviceLookupKind = 'deviceType' | 'colorType' | 'paperFormat' | 'locationId';
export type DeviceLookups = {
  options: Record<DeviceLookupKind, LookupOption[]>;
  /** A code's name (a location id's name), or the code itself when the dictionary lacks it. */
  label: (kind: DeviceLookupKind, value: string | number | null) => string;
  locations: LocationRow[];
};

const DICTIONARIES = ['PRINTER_TYPE', 'COLOR_TYPE', 'PAPER_FORMAT'] as const;
const fetchLocations = () => api<PageResponse<LocationRow>>('/user-locations/');

/**
 * Starts loading the device lookups as soon as someone is signed in (the shell): the devices,
 * consumables and report screens then ask for their rows without waiting for them.
 */
export function prefetchDeviceLookups() {
  for (const code of DICTIONARIES) prefetchDictionaryItems(code);
  prefetchLookup('locations', fetchLocations);
}

/**
 * The lookups the devices and consumables grids filter by: printer types, colour types and
 * paper formats (system dictionaries) and the caller's locations. Null until all have loaded.
 */
export function useDeviceLookups(): DeviceLookups | null {
  const { i18n } = useTranslation();
  const types = useDictionaryItems('PRINTER_TYPE');
  const colors = useDictionaryItems('COLOR_TYPE');
  const papers = useDictionaryItems('PAPER_FORMAT');
  const locations = useLookup('locations', fetchLocations);
  const lang = i18n.language;
  return useMemo(() => {
    // A lookup that failed leaves its column without choices rather than the grid without data.
    const done = [types, colors, papers, locations].every((q) => q.data || q.isError);
    if (!done) return null;
    const dict = (rows: { code: string; name: string; nameRu: string | null }[] | undefined) =>
      (rows ?? []).map((r) => ({ value: r.code, label: itemName(r, lang) }));
    const options: DeviceLookups['options'] = {
      deviceType: dict(types.data?.pageRows),
      colorType: dict(colors.data?.pageRows),
      paperFormat: dict(papers.data?.pageRows),
      locationId: (locations.data?.pageRows ?? []).map((l) => ({ value: l.id, label: l.name })),
    };
    const label = (kind: DeviceLookupKind, value: string | number | null) =>
      value === null ? '' : (options[kind].find((o) => o.value === value)?.label ?? String(value));
    return { options, label, locations: locations.data?.pageRows ?? [] };
  }, [types, colors, papers, locations, lang]);
}
