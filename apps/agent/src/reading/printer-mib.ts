/** OIDs and enumerations of the standard MIBs (RFC 1213, RFC 2790, RFC 3805, IANA-PRINTER-MIB). */
import { SUPPLY_TYPES as SUPPLY_TYPE_NAMES } from '@pagewatch/contracts/reading';

export const SYS = {
  descr: '1.3.6.1.2.1.1.1.0',
  objectId: '1.3.6.1.2.1.1.2.0',
  name: '1.3.6.1.2.1.1.5.0',
  location: '1.3.6.1.2.1.1.6.0',
} as const;

export const IF_PHYS_ADDRESS = '1.3.6.1.2.1.2.2.1.6';

export const HR = {
  deviceType: '1.3.6.1.2.1.25.3.2.1.2',
  deviceDescr: '1.3.6.1.2.1.25.3.2.1.3',
  deviceStatus: '1.3.6.1.2.1.25.3.2.1.5',
  printerStatus: '1.3.6.1.2.1.25.3.5.1.1',
  printerErrorState: '1.3.6.1.2.1.25.3.5.1.2',
  /** hrDevicePrinter, the hrDeviceType of a printer. */
  typePrinter: '1.3.6.1.2.1.25.3.1.5',
} as const;

export const PRT = {
  root: '1.3.6.1.2.1.43',
  generalPrinterName: '1.3.6.1.2.1.43.5.1.1.16',
  generalSerialNumber: '1.3.6.1.2.1.43.5.1.1.17',
  input: '1.3.6.1.2.1.43.8.2.1',
  inputDimUnit: '1.3.6.1.2.1.43.8.2.1.3',
  inputFeedDim: '1.3.6.1.2.1.43.8.2.1.4',
  inputXFeedDim: '1.3.6.1.2.1.43.8.2.1.5',
  inputMaxCapacity: '1.3.6.1.2.1.43.8.2.1.9',
  inputCurrentLevel: '1.3.6.1.2.1.43.8.2.1.10',
  inputMediaName: '1.3.6.1.2.1.43.8.2.1.12',
  inputName: '1.3.6.1.2.1.43.8.2.1.13',
  inputDescription: '1.3.6.1.2.1.43.8.2.1.18',
  marker: '1.3.6.1.2.1.43.10.2.1',
  markerCounterUnit: '1.3.6.1.2.1.43.10.2.1.3',
  markerLifeCount: '1.3.6.1.2.1.43.10.2.1.4',
  markerPowerOnCount: '1.3.6.1.2.1.43.10.2.1.5',
  markerProcessColorants: '1.3.6.1.2.1.43.10.2.1.6',
  supplies: '1.3.6.1.2.1.43.11.1.1',
  supplyColorantIndex: '1.3.6.1.2.1.43.11.1.1.3',
  supplyClass: '1.3.6.1.2.1.43.11.1.1.4',
  supplyType: '1.3.6.1.2.1.43.11.1.1.5',
  supplyDescription: '1.3.6.1.2.1.43.11.1.1.6',
  supplyUnit: '1.3.6.1.2.1.43.11.1.1.7',
  supplyMaxCapacity: '1.3.6.1.2.1.43.11.1.1.8',
  supplyLevel: '1.3.6.1.2.1.43.11.1.1.9',
  colorantValue: '1.3.6.1.2.1.43.12.1.1.4',
} as const;

/** What the agent walks on every device, column by column so one bad row spoils little. */
export const STANDARD_WALKS: readonly string[] = [
  HR.deviceType, HR.deviceDescr, HR.deviceStatus,
  '1.3.6.1.2.1.25.3.5.1',
  PRT.generalPrinterName, PRT.generalSerialNumber,
  PRT.input, PRT.marker, PRT.supplies, PRT.colorantValue,
  IF_PHYS_ADDRESS,
];

/** IANA-PRINTER-MIB PrtMarkerSuppliesTypeTC: the contracts' names by their value (1 first). */
export const SUPPLY_TYPES: Record<number, string> = Object.fromEntries(SUPPLY_TYPE_NAMES.map((name, i) => [i + 1, name]));

/** IANA-PRINTER-MIB PrtMarkerSuppliesSupplyUnitTC. */
export const SUPPLY_UNITS: Record<number, string> = {
  1: 'other', 2: 'unknown', 3: 'tenThousandthsOfInches', 4: 'micrometers', 7: 'impressions',
  8: 'sheets', 11: 'hours', 12: 'thousandthsOfOunces', 13: 'tenthsOfGrams',
  14: 'hundrethsOfFluidOunces', 15: 'tenthsOfMilliliters', 16: 'feet', 17: 'meters', 18: 'items',
  19: 'percent',
};

/** IANA-PRINTER-MIB PrtMarkerCounterUnitTC. */
export const COUNTER_UNITS: Record<number, string> = {
  3: 'tenThousandthsOfInches', 4: 'micrometers', 5: 'characters', 6: 'lines', 7: 'impressions',
  8: 'sheets', 9: 'dotRow', 11: 'hours', 16: 'feet', 17: 'meters',
};

/**
 * When a device gives no supply type, the description usually names it. Order matters:
 * "Waste Toner" must win over "Toner", "Toner Cartridge" over "Toner".
 */
export const TYPE_FROM_DESCRIPTION: ReadonlyArray<readonly [RegExp, string]> = [
  [/waste\s*toner|toner\s*collect|waste\s*box|waste\s*container/i, 'wasteToner'],
  [/waste\s*ink|maintenance\s*(box|tank)/i, 'wasteInk'],
  [/drum|photo\s*conductor|opc|imaging\s*unit/i, 'opc'],
  [/developer/i, 'developer'],
  [/fus(er|ing)/i, 'fuser'],
  [/transfer|belt/i, 'transferUnit'],
  [/staple/i, 'staples'],
  [/ink\s*(cartridge|tank)/i, 'inkCartridge'],
  [/\bink\b/i, 'ink'],
  [/toner\s*cartridge|cartridge/i, 'tonerCartridge'],
  [/toner/i, 'toner'],
  [/ribbon/i, 'inkRibbon'],
];

export const COLORANT_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcyan\b/i, 'cyan'],
  [/\bmagenta\b/i, 'magenta'],
  [/\byellow\b/i, 'yellow'],
  [/\bblack\b|\bbk\b/i, 'black'],
];
