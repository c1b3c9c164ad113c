import type { TFunction } from 'i18next';

/**
 * Codes a device reports that are shown by their label, `<prefix>.<code>` (lib/code-labels.test.ts
 * checks every code of the contracts has one in both languages): supply types
 * (PrtMarkerSuppliesTypeTC), hrPrinterStatus and hrDeviceStatus.
 */
export const CODE_PREFIX = {
  supplyType: 'devices.supplyType',
  printerStatus: 'devices.printerState',
  deviceStatus: 'devices.snmpState',
} as const;
export type CodeSet = keyof typeof CODE_PREFIX;

/** The label of a code; a code no label names (a vendor's own supply type) shows as it came. */
export const codeLabel = (t: TFunction, set: CodeSet, code: string | null | undefined): string =>
  code ? t(`${CODE_PREFIX[set]}.${code}`, { defaultValue: code }) : '';
