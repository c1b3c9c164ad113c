import { BILLING_RATE_DAYS, ERP_FILE_HEADER, PERIOD_MONTHS, RUN_FILE_COLUMNS, type BillingRun, type BillingRunDetail } from '@pagewatch/contracts/billing';
import { AppError, conflict, invalid, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import { csv } from '../../lib/csv.ts';
import { xlsxBuffer } from '../../lib/xlsx.ts';
import { FILE_STYLES, fileColumns } from '../../lib/file-format.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { Db } from '../../db/client.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import * as contracts from './contracts.repository.ts';
import * as repo from './billing-runs.repository.ts';
import { addDays, boundaryRead, deviceLines, moneyText, perDevice, pooled, priceText, type BoundaryRead } from './billing-figures.ts';
import type { ContractsService } from './contracts.service.ts';
import { METERS, type Meter } from '@pagewatch/contracts/meter-reads';
import './contracts.messages.ts';

/** Where a closed run is announced: the notification channels (app.ts supplies them, as for supply orders). */
export type RunChannels = {
  enabled(tx: Db, kind: 'WEBHOOK'): Promise<{ id: number }[]>;
  enqueue(tx: Db, channelId: number, message: { type: string; subject: string; text: string; facts: Record<string, string | null>; locationId: number }): Promise<boolean>;
};

const FORMATS = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', erp: 'text/csv; charset=utf-8' } as const;

const addMonths = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
};
const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/**
 * Billing runs (issue 54): a contract's period, one read per device and priced meter at each
 * boundary, the amounts, a review of every flagged device, and a close after which nothing of
 * the run changes (its figures are stored, never worked out again). Each device is billed for
 * the days of the period it was on the contract: it opens at the read of the day before it
 * joined (or the period began) and closes at the read of the day it left (or the period ended).
 */
export class BillingRunsService extends DomainService {
  private readonly contracts: ContractsService;
  private readonly channels: RunChannels | null;
  constructor(db: Db, log: EventLog, contractsService: ContractsService, channels: RunChannels | null = null) {
    super(db, log);
    this.contracts = contractsService;
    this.channels = channels;
  }

  /** The run if the caller sees its contract. */
  private async visible(caller: Caller, id: number): Promise<repo.RunRow> {
    const run = await repo.runById(this.db, id);
    if (!run || !caller.scope.has(run.locationId)) throw notFound();
    return run;
  }

  private out = (r: repo.RunRow): BillingRun => ({ ...r, total: moneyText(r.totalMinor, r.currency) });

  async list(caller: Caller, contractId: number): Promise<BillingRun[]> {
    await this.contracts.visible(caller, contractId);
    return (await repo.runsOf(this.db, contractId)).map(this.out);
  }

  async detail(caller: Caller, id: number): Promise<BillingRunDetail> {
    const run = await this.visible(caller, id);
    const devices = await repo.runDevices(this.db, id);
    return {
      ...this.out(run),
      devices: devices.map((d) => ({
        ...d,
        amount: moneyText(d.amountMinor, run.currency),
        meters: d.meters.map(({ priceMicros, ...m }) => ({ ...m, price: priceText(priceMicros, run.currency) })),
      })),
    };
  }

  /** A new run of the period starting on `periodFrom` (a billing day within the contract's dates), worked out at once. */
  async create(caller: Caller, contractId: number, periodFrom: string): Promise<BillingRunDetail> {
    const c = await this.contracts.visible(caller, contractId);
    if (Number(periodFrom.slice(8)) !== c.billingDay) throw invalid('periodFrom', 'billing.notBillingDay', { day: c.billingDay });
    const periodTo = addDays(addMonths(periodFrom, PERIOD_MONTHS[c.period]), -1);
    if (periodTo < c.startsOn || (c.endsOn && periodFrom > c.endsOn)) throw invalid('periodFrom', 'billing.outsideContract');
    const id = await this.db.transaction(async (tx) => {
      const made = await repo.insertRun(tx, { contractId, periodFrom, periodTo, currency: c.currency, baseFeeMinor: c.baseFeeMinor }, caller.userId);
      if (made === null) throw conflict('billing.runExists');
      await this.compute(tx, made);
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.runMade', objectClass: 'LocationDao', objectId: c.locationId, locationId: c.locationId, params: { name: c.name, from: periodFrom, to: periodTo } }, tx);
      return made;
    });
    return this.detail(caller, id);
  }

  /** Works an OPEN run out again from the history as it is now (late reads, corrections); a closed run is a 409. */
  async rerun(caller: Caller, id: number): Promise<BillingRunDetail> {
    await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      if ((await repo.lockRun(tx, id)) !== 'OPEN') throw conflict('billing.runClosed');
      await this.compute(tx, id);
    });
    return this.detail(caller, id);
  }

  /**
   * The run's figures from the contract (its prices, fee, devices) and the history. Reviews stay
   * with devices whose flags did not change. Public for the benchmark, which times it alone.
   */
  async compute(tx: Db, runId: number): Promise<void> {
    const run = (await repo.runById(tx, runId))!;
    const c = (await contracts.contractById(tx, run.contractId))!;
    const reach = await this.contracts.reach(c, tx);
    const members = await contracts.contractDevices(tx, c.id, reach);
    const windows = members
      .map((m) => ({ m, from: later(later(run.periodFrom, m.joinedOn), c.startsOn), to: earlier(earlier(run.periodTo, m.leftOn ?? run.periodTo), c.endsOn ?? run.periodTo) }))
      .filter((w) => w.from <= w.to);
    const wanted = windows.flatMap((w, i) => [
      { k: 2 * i, serial: w.m.serialNumber, boundary: addDays(w.from, -1) },
      { k: 2 * i + 1, serial: w.m.serialNumber, boundary: w.to },
    ]);
    const [around, flags, previous, reviews] = [
      await contracts.readsAround(tx, reach, wanted, BILLING_RATE_DAYS),
      await contracts.windowFlags(tx, reach, windows.map((w, i) => ({ k: i, serial: w.m.serialNumber, from: w.from, to: w.to }))),
      await repo.previousClosings(tx, c.id, run.periodFrom),
      await repo.reviewsOf(tx, runId),
    ];
    const empty = { before: null, beforeRate: null, after: null, afterRate: null };
    let total = c.baseFeeMinor;
    // Pooled included pages go to the devices in their order (by serial, then day joined): the same run gives the same shares.
    const included = c.includedPages === 'POOLED' ? pooled(c.prices) : perDevice(c.prices);
    const devices: repo.RunDeviceValues[] = windows.map((w, i) => {
      const carried = w.from === run.periodFrom ? previous.get(w.m.serialNumber.toLowerCase()) : undefined;
      const opening = (m: Meter): BoundaryRead => {
        const prior = carried?.get(m);
        return prior ? { value: prior.value, date: prior.date, source: 'PREVIOUS_RUN' } : boundaryRead(wanted[2 * i]!.boundary, around.get(2 * i) ?? empty, m);
      };
      const closing = (m: Meter) => boundaryRead(w.to, around.get(2 * i + 1) ?? empty, m);
      const figures = deviceLines(c.prices, c.currency, opening, closing, included);
      const all = [...new Set([...(flags.get(i) ?? []), ...figures.flags])].sort();
      const kept = reviews.get(`${w.m.serialNumber.toLowerCase()}|${w.from}`);
      total += figures.amountMinor;
      return {
        serialNumber: w.m.serialNumber, equipmentId: w.m.equipmentId, deviceId: w.m.deviceId, modelCode: w.m.modelCode, from: w.from, to: w.to,
        flags: all, estimated: figures.estimated, amountMinor: figures.amountMinor, lines: figures.lines,
        review: kept && kept.flags === all.join(',') ? { by: kept.by, at: kept.at, note: kept.note } : null,
      };
    });
    await repo.replaceFigures(tx, runId, devices, total);
  }

  /** Marks a flagged device of an OPEN run reviewed, with the reviewer's note. */
  async review(caller: Caller, id: number, runDeviceId: number, note: string): Promise<BillingRunDetail> {
    await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      if ((await repo.lockRun(tx, id)) !== 'OPEN') throw conflict('billing.runClosed');
      const d = await repo.runDeviceById(tx, runDeviceId);
      if (!d || d.runId !== id) throw notFound();
      if (!d.flags.length) throw conflict('billing.notFlagged');
      await repo.reviewDevice(tx, runDeviceId, caller.userId, note);
    });
    return this.detail(caller, id);
  }

  /** Closes the run once every flagged device is reviewed; then announces it to the webhook channels. */
  async close(caller: Caller, id: number, lang: Lang): Promise<BillingRunDetail> {
    const run = await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      const state = await repo.lockRun(tx, id);
      if (state !== 'OPEN') throw conflict('billing.runClosed');
      const now = (await repo.runById(tx, id))!;
      if (now.toReview > 0) throw new AppError('CONFLICT', { key: 'billing.notReviewed', params: { count: now.toReview } });
      await repo.closeRun(tx, id, caller.userId);
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.runClosed', objectClass: 'LocationDao', objectId: run.locationId, locationId: run.locationId, params: { name: run.contractName, from: run.periodFrom, to: run.periodTo, total: `${moneyText(now.totalMinor, run.currency)} ${run.currency}` } }, tx);
      await this.announce(tx, now, lang);
    });
    return this.detail(caller, id);
  }

  /** The webhook message of a closed run (docs/webhook.md, `BILLING_RUN_CLOSED`). */
  private async announce(tx: Db, run: repo.RunRow, lang: Lang): Promise<void> {
    const hooks = this.channels ? await this.channels.enabled(tx, 'WEBHOOK') : [];
    if (!hooks.length) return;
    const devices = await repo.runDevices(tx, run.id);
    const total = moneyText(run.totalMinor, run.currency);
    const params = { name: run.contractName, from: run.periodFrom, to: run.periodTo, total, currency: run.currency, devices: devices.length };
    const facts = {
      contractId: String(run.contractId), contract: run.contractName, runId: String(run.id), periodFrom: run.periodFrom, periodTo: run.periodTo, currency: run.currency,
      baseFee: moneyText(run.baseFeeMinor, run.currency), total, devices: String(devices.length), estimatedDevices: String(devices.filter((d) => d.estimated).length),
      flaggedDevices: String(devices.filter((d) => d.flags.length).length),
    };
    const message = { type: 'BILLING_RUN_CLOSED', subject: translate(lang, 'billing.webhook.subject', params), text: translate(lang, 'billing.webhook.text', params), facts, locationId: run.locationId };
    for (const hook of hooks) await this.channels!.enqueue(tx, hook.id, message);
  }

  /** The run's file: `csv`/`xlsx` in the user's language, one line per device and meter; `erp`, the meter-import CSV (docs/billing.md). */
  async file(caller: Caller, id: number, format: keyof typeof FORMATS, lang: Lang): Promise<{ body: Buffer | string; contentType: string; filename: string }> {
    const run = await this.detail(caller, id);
    const stem = `${run.contractName} ${run.periodFrom}`;
    if (format === 'erp') return { body: erpFile(run), contentType: FORMATS.erp, filename: `${stem} meters.csv` };
    const lines = run.devices.flatMap((d) => d.meters.map((m) => ({
      billingEquipmentId: d.equipmentId, serialNumber: d.serialNumber, modelCode: d.modelCode, billingMeter: translate(lang, `meters.name.${m.meter}`),
      billingOpening: m.opening.value, billingOpeningDate: m.opening.date, billingOpeningSource: m.opening.source && translate(lang, `billing.source.${m.opening.source}`),
      billingClosing: m.closing.value, billingClosingDate: m.closing.date, billingClosingSource: m.closing.source && translate(lang, `billing.source.${m.closing.source}`),
      billingPages: m.pages, billingIncluded: m.includedPages, billingBillable: m.billablePages, billingPrice: m.price, billingAmount: moneyText(m.amountMinor, run.currency),
      billingFlags: d.flags.map((f) => translate(lang, `meters.quality.${f}`)).join('; '),
    })));
    const columns = fileColumns(RUN_FILE_COLUMNS, lang);
    const body = format === 'csv' ? csv(columns, lines, FILE_STYLES[lang]) : await xlsxBuffer(stem, columns, lines, FILE_STYLES[lang]);
    return { body, contentType: FORMATS[format], filename: `${stem}.${format}` };
  }
}

/** The ERP meter-import file (docs/billing.md): fixed English header, comma, ISO dates, one row per device and meter with its closing read. */
export function erpFile(run: Pick<BillingRunDetail, 'devices'>): string {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = run.devices.flatMap((d) => d.meters.filter((m) => m.closing.value !== null).map((m) =>
    [d.equipmentId ?? '', d.serialNumber, m.meter, String(METERS[m.meter].code ?? ''), String(m.closing.value), m.closing.date ?? '', m.closing.source ?? ''].map(cell).join(',')));
  return [ERP_FILE_HEADER.join(','), ...rows].join('\r\n') + '\r\n';
}

