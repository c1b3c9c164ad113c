import { contractDeviceChangeSchema, contractDeviceInputSchema, contractInputSchema, type Contract, type ContractInput, type IncludedPagesMode } from '@pagewatch/contracts/billing';
import type { BillingPeriod } from '@pagewatch/contracts/billing';
import { METER_NAMES, type Meter } from '@pagewatch/contracts/meter-reads';
import type { z } from 'zod';
import type { TFunction } from 'i18next';
import { formatDay } from '../../lib/format.ts';

/** A click-price row of the form: number inputs hold '' while empty. */
export type PriceRow = { meter: Meter | null; price: string; includedPages: number | string };
/** The contract form's values: selects hold strings, number inputs '' while empty, an open end is ''. */
export type ContractFormValues = {
  name: string;
  locationId: string | null;
  billingDay: number | string;
  period: BillingPeriod;
  currency: string;
  baseFee: string;
  includedPages: IncludedPagesMode;
  startsOn: string;
  endsOn: string;
  prices: PriceRow[];
};

const today = () => new Date().toISOString().slice(0, 10);
/** The days a contract or a device of it runs, in the spec's day format ("с 01.12.2026 по 31.12.2027"). */
export const daysText = (t: TFunction, from: string, to: string | null | undefined): string =>
  to ? t('contracts.fromTo', { from: formatDay(from), to: formatDay(to) }) : t('contracts.fromOn', { from: formatDay(from) });

export const firstOfMonth = () => `${today().slice(0, 7)}-01`;

export const emptyContract = (): ContractFormValues => ({
  name: '', locationId: null, billingDay: 1, period: 'MONTHLY', currency: 'EUR', baseFee: '0.00', includedPages: 'PER_DEVICE', startsOn: firstOfMonth(), endsOn: '',
  prices: [{ meter: 'mono', price: '0.01', includedPages: 0 }, { meter: 'color', price: '0.05', includedPages: 0 }],
});

export const valuesOf = (c: Contract): ContractFormValues => ({
  name: c.name, locationId: String(c.locationId), billingDay: c.billingDay, period: c.period, currency: c.currency, baseFee: c.baseFee, includedPages: c.includedPages,
  startsOn: c.startsOn, endsOn: c.endsOn ?? '', prices: c.prices.map((p) => ({ meter: p.meter, price: p.price, includedPages: p.includedPages })),
});

/** '' is no number (the schema refuses it), not 0. */
const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));

function draftOf(v: ContractFormValues) {
  return {
    name: v.name, locationId: v.locationId ? Number(v.locationId) : undefined, billingDay: num(v.billingDay), period: v.period, currency: v.currency, baseFee: v.baseFee,
    includedPages: v.includedPages, startsOn: v.startsOn.trim(), endsOn: v.endsOn.trim() || null,
    prices: v.prices.map((p) => ({ meter: p.meter ?? undefined, price: p.price, includedPages: num(p.includedPages) })),
  };
}

/** The input to send, once the form is validated. */
export const inputOf = (v: ContractFormValues): ContractInput => contractInputSchema.parse(draftOf(v));

/** A schema's issues as form errors: the field's path (`prices.0.price`) → the i18n key of its first issue. */
function issuesOf(schema: z.ZodType, input: unknown, known: Record<string, string> = {}): Record<string, string> {
  const errors = { ...known };
  for (const issue of schema.safeParse(input).error?.issues ?? []) {
    errors[issue.path.map(String).join('.')] ??= issue.message.includes('.') ? issue.message : 'general.badValue';
  }
  return errors;
}

/** The contract form's errors (field → i18n key): the contracts' schema, as the server checks it; a select left empty is mandatory. */
export function validateContract(v: ContractFormValues): Record<string, string> {
  const known: Record<string, string> = v.locationId ? {} : { locationId: 'general.mandatory' };
  v.prices.forEach((p, i) => { if (!p.meter) known[`prices.${i}.meter`] = 'general.mandatory'; });
  return issuesOf(contractInputSchema, draftOf(v), known);
}

/** The meters a price row may choose: its own and those no other row has. */
export const metersFree = (rows: PriceRow[], index: number): Meter[] =>
  METER_NAMES.filter((m) => m === rows[index]?.meter || !rows.some((r, i) => i !== index && r.meter === m));

/** A device to add: serial, ERP equipment id, the day it joined and (if known) the day it leaves. */
export type DeviceFormValues = { serialNumber: string; equipmentId: string; joinedOn: string; leftOn: string };
export const emptyDevice = (): DeviceFormValues => ({ serialNumber: '', equipmentId: '', joinedOn: firstOfMonth(), leftOn: '' });
const deviceDraft = (v: DeviceFormValues) => ({ serialNumber: v.serialNumber, equipmentId: v.equipmentId.trim() || null, joinedOn: v.joinedOn.trim(), leftOn: v.leftOn.trim() || null });
export const validateDevice = (v: DeviceFormValues) => issuesOf(contractDeviceInputSchema, deviceDraft(v));
export const deviceInputOf = (v: DeviceFormValues) => contractDeviceInputSchema.parse(deviceDraft(v));

/** A device's change: its equipment id and the day it left ('' : still on the contract), not before it joined. */
export type DeviceChangeValues = { equipmentId: string; leftOn: string };
const changeDraft = (v: DeviceChangeValues) => ({ equipmentId: v.equipmentId.trim() || null, leftOn: v.leftOn.trim() || null });
export function validateDeviceChange(v: DeviceChangeValues, joinedOn: string): Record<string, string> {
  const errors = issuesOf(contractDeviceChangeSchema, changeDraft(v));
  const left = changeDraft(v).leftOn;
  if (!errors.leftOn && left && left < joinedOn) errors.leftOn = 'billing.endBeforeStart';
  return errors;
}
export const deviceChangeOf = (v: DeviceChangeValues) => contractDeviceChangeSchema.parse(changeDraft(v));
