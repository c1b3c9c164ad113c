import { existsSync, readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import type { ListQuery } from '@pagewatch/contracts/list';
import {
  LICENSE_REQUEST_FORMAT,
  licenseInputSchema,
  type InstanceLicense,
  type License,
  type LicenseInput,
  type LicenseListRow,
  type LicenseRequest,
  type LocationDeviceCounts,
} from '@pagewatch/contracts/licenses';
import { AppError, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { Db } from '../../db/client.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { assertDefaultAdmin, assertInScope, type Caller } from '../../lib/caller.ts';
import { locationById } from '../locations/index.ts';
import { VERSION } from '../options/index.ts';
import * as repo from './licenses.repository.ts';
import { licensesListSql } from './licenses.list.ts';
import { issuerPublicKey, verifyLicense } from './license-signature.ts';
import { licenseStatus, localToday, type StatusResult } from './license-status.ts';
import './licenses.messages.ts';

/** dd.MM.yyyy, as the console shows license days (spec section 9). */
const shown = (isoDay: string) => isoDay.split('-').reverse().join('.');
const taken = () => new AppError('CONFLICT', { fields: [{ field: 'location', key: 'licenses.locationTaken' }] });
const fileError = (code: 'VALIDATION' | 'UNPROCESSABLE', key: string, params?: Record<string, unknown>) =>
  new AppError(code, { fields: [{ field: 'licenseFile', key, params }] });

/**
 * Licenses: the instance license (a document signed by the issuer, checked with its public key)
 * and per-location licenses. Reading needs the grant and the location in scope; changing them
 * is the default administrator's alone (security.md, invariant 2). Nothing here stops
 * collection: a status only informs.
 */
export class LicensesService extends DomainService {
  private readonly issuerKey: string;
  private readonly today: () => string;

  /** `issuerKey`: PEM text, or the path of a PEM file (read on use, so a new key needs no restart). */
  constructor(db: Db, log: EventLog, issuerKey: string, today: () => string = () => localToday()) {
    super(db, log);
    this.issuerKey = issuerKey;
    this.today = today;
  }

  async init() {
    await repo.ensureInstance(this.db);
  }

  private publicKey(): KeyObject | null {
    const pem = this.issuerKey.trimStart().startsWith('-----BEGIN')
      ? this.issuerKey
      : existsSync(this.issuerKey) ? readFileSync(this.issuerKey, 'utf8') : null;
    return pem ? issuerPublicKey(pem) : null;
  }

  private describe(lang: Lang, s: StatusResult) {
    const params = Object.fromEntries(Object.entries(s.params).map(([k, v]) => [k, k === 'date' ? shown(String(v)) : v]));
    return translate(lang, s.key, params);
  }

  /** GET /instance-license/: the DEFAULT location's, for whoever holds it. */
  async instance(caller: Caller, lang: Lang): Promise<InstanceLicense> {
    if (!caller.seesUnlocated) throw new AppError('FORBIDDEN', { key: 'auth.defaultAdminOnly' });
    const row = await repo.ensureInstance(this.db);
    const counts = await repo.deviceCounts(this.db, null);
    const terms = row.dateFrom && row.dateTo && row.deviceCount ? { dateFrom: row.dateFrom, dateTo: row.dateTo, deviceCount: row.deviceCount } : null;
    // The stored document is checked again: a changed key or a row edited by hand shows as ERROR.
    const key = terms && row.document ? this.publicKey() : null;
    const signatureOk = !terms || (key !== null && this.storedVerifies(row.document!, key, row.instanceId));
    const status = licenseStatus({ terms, activeDeviceCount: counts.activeDeviceCount, today: this.today(), signatureOk });
    return {
      instanceId: row.instanceId,
      status: status.status,
      statusDescription: this.describe(lang, status),
      companyName: row.companyName,
      from: row.dateFrom,
      to: row.dateTo,
      counts: { deviceCount: row.deviceCount, activeDeviceCount: counts.activeDeviceCount, dbDeviceCount: counts.allDeviceCount },
      uploadedAt: row.uploadedAt?.toISOString() ?? null,
    };
  }

  private storedVerifies(document: string, key: KeyObject, instanceId: string): boolean {
    try {
      const v = verifyLicense(JSON.parse(document), key);
      return v.ok && v.terms.instanceId === instanceId;
    } catch {
      return false;
    }
  }

  /** lic-request.json: what the issuer signs a license for. */
  async request(caller: Caller, companyName: string): Promise<LicenseRequest> {
    assertDefaultAdmin(caller);
    const row = await repo.ensureInstance(this.db);
    const counts = await repo.deviceCounts(this.db, null);
    return {
      format: LICENSE_REQUEST_FORMAT,
      instanceId: row.instanceId,
      companyName,
      version: VERSION.appVersion,
      requestedAt: new Date().toISOString(),
      counts: { activeDeviceCount: counts.activeDeviceCount, dbDeviceCount: counts.allDeviceCount },
    };
  }

  /** Installs an uploaded .lic after every check; a refused file changes nothing. */
  async install(caller: Caller, data: Buffer, lang: Lang): Promise<InstanceLicense> {
    assertDefaultAdmin(caller);
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
    } catch {
      throw fileError('VALIDATION', 'licenses.malformed');
    }
    const key = this.publicKey();
    if (!key) throw fileError('UNPROCESSABLE', 'licenses.noIssuerKey');
    const verified = verifyLicense(doc, key);
    if (!verified.ok) throw verified.reason === 'malformed' ? fileError('VALIDATION', 'licenses.malformed') : fileError('UNPROCESSABLE', 'licenses.badSignature');
    const { terms } = verified;
    const row = await repo.ensureInstance(this.db);
    if (terms.instanceId !== row.instanceId) throw fileError('UNPROCESSABLE', 'licenses.otherInstance', { instanceId: terms.instanceId });
    if (terms.dateTo < this.today()) throw fileError('UNPROCESSABLE', 'licenses.expired', { date: shown(terms.dateTo) });
    await repo.saveInstanceLicense(this.db, {
      document: JSON.stringify(doc),
      companyName: terms.companyName,
      dateFrom: terms.dateFrom,
      dateTo: terms.dateTo,
      deviceCount: terms.deviceCount,
      uploadedAt: new Date(),
      uploadedBy: caller.userId,
    });
    await this.log.byCaller(caller, { group: 'SETTINGS', level: 'I', messageCode: 'license.installed', params: { company: terms.companyName, date: shown(terms.dateTo), count: terms.deviceCount } });
    return this.instance(caller, lang);
  }

  list(caller: Caller, q: ListQuery) {
    return runList<LicenseListRow>(this.db, licensesListSql, q, caller);
  }

  private async view(row: repo.LicenseWithLocation): Promise<License> {
    const counts = await repo.deviceCounts(this.db, row.locationId);
    const status = licenseStatus({ terms: row, activeDeviceCount: counts.activeDeviceCount, today: this.today() });
    return {
      id: row.id,
      location: row.location,
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      deviceCount: row.deviceCount,
      activeDeviceCount: counts.activeDeviceCount,
      dbDeviceCount: counts.allDeviceCount,
      status: status.status,
    };
  }

  private async visible(caller: Caller, id: number) {
    const row = await repo.licenseById(this.db, id);
    if (!row) throw notFound();
    assertInScope(caller, row.locationId);
    return row;
  }

  async get(caller: Caller, id: number) {
    return this.view(await this.visible(caller, id));
  }

  async inForce(caller: Caller) {
    const rows = await repo.licensesInForce(this.db, caller, this.today());
    const pageRows = await Promise.all(rows.map((r) => this.view(r)));
    return { pageRows, totalRows: pageRows.length };
  }

  async licensable(caller: Caller) {
    const pageRows = await repo.licensableLocations(this.db, caller);
    return { pageRows, totalRows: pageRows.length };
  }

  async locationDevices(caller: Caller, locationId: number): Promise<LocationDeviceCounts> {
    if (!(await locationById(this.db, locationId))) throw notFound();
    assertInScope(caller, locationId);
    return repo.deviceCounts(this.db, locationId);
  }

  /** The location of a change: in scope, not DEFAULT (the instance license is uploaded), unlicensed unless it is `own`'s. */
  private async target(caller: Caller, input: LicenseInput, ownId: number | null) {
    const parsed = licenseInputSchema.parse(input);
    const loc = await locationById(this.db, parsed.location.id);
    if (!loc) throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'general.badValue' }] });
    assertInScope(caller, loc.id);
    if (loc.code === 'DEFAULT') throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'licenses.defaultLocation' }] });
    const held = await repo.licenseOfLocation(this.db, loc.id);
    if (held && held.id !== ownId) throw taken();
    return { values: { locationId: loc.id, dateFrom: parsed.dateFrom, dateTo: parsed.dateTo, deviceCount: parsed.deviceCount }, loc };
  }

  async create(caller: Caller, input: LicenseInput) {
    assertDefaultAdmin(caller);
    const { values, loc } = await this.target(caller, input, null);
    const row = await repo.insertLicense(this.db, values);
    if (!row) throw taken();
    await this.log.byCaller(caller, { group: 'LOCATIONS', level: 'I', messageCode: 'license.created', params: { location: loc.code, count: values.deviceCount }, locationId: loc.id });
    return this.get(caller, row.id);
  }

  async update(caller: Caller, id: number, input: LicenseInput) {
    assertDefaultAdmin(caller);
    await this.visible(caller, id);
    const { values, loc } = await this.target(caller, input, id);
    if (!(await repo.updateLicense(this.db, id, values))) throw taken();
    await this.log.byCaller(caller, { group: 'LOCATIONS', level: 'I', messageCode: 'license.updated', params: { location: loc.code }, locationId: loc.id });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    assertDefaultAdmin(caller);
    const row = await this.visible(caller, id);
    await repo.deleteLicense(this.db, id);
    await this.log.byCaller(caller, { group: 'LOCATIONS', level: 'I', messageCode: 'license.deleted', params: { location: row.location.code }, locationId: row.locationId });
  }
}
