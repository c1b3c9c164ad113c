import { decimalUnits, minorDigits, unitsText, type Contract, type ContractDevice, type ContractDeviceInput, type ContractInput } from '@pagewatch/contracts/billing';
import { AppError, conflict, invalid, notFound } from '../../lib/app-error.ts';
import { assertInScope, type Caller } from '../../lib/caller.ts';
import type { Db } from '../../db/client.ts';
import { DomainService } from '../event-logs/index.ts';
import { allLocationIds, descendantIds } from '../locations/index.ts';
import * as repo from './contracts.repository.ts';
import type { ContractRow } from './contracts.repository.ts';
import './contracts.messages.ts';

/** A contract as the API gives it: the base fee as decimal text in its currency. */
export const contractOut = (c: ContractRow): Contract => {
  const { baseFeeMinor, ...rest } = c;
  return { ...rest, baseFee: unitsText(baseFeeMinor, minorDigits(c.currency)) };
};

/**
 * Contracts of customer locations (issue 54): read with MNU_BILLING.READ, made and changed with
 * MNU_BILLING.EDIT (the routes check the grants), always within the caller's locations. A
 * contract's devices are serials of devices in its location or below it: a serial of another
 * location is refused, so no one bills a device they cannot see.
 */
export class ContractsService extends DomainService {
  /** The caller's locations, or one of them with those below it (`location`). */
  private async locations(caller: Caller, location?: number): Promise<number[] | null> {
    if (location === undefined) return caller.allLocations ? null : [...caller.scope];
    assertInScope(caller, location);
    return descendantIds(this.db, [location]);
  }

  /** The contract if the caller may see it: one outside their locations is not found. */
  async visible(caller: Caller, id: number): Promise<ContractRow> {
    const c = await repo.contractById(this.db, id);
    if (!c || !caller.scope.has(c.locationId)) throw notFound();
    return c;
  }

  /** The locations a contract bills from: its location and those below it. */
  reach(c: Pick<ContractRow, 'locationId'>, db: Db = this.db): Promise<number[]> {
    return descendantIds(db, [c.locationId]);
  }

  async list(caller: Caller, location?: number): Promise<Contract[]> {
    return (await repo.contractsOf(this.db, await this.locations(caller, location))).map(contractOut);
  }

  async get(caller: Caller, id: number): Promise<Contract> {
    return contractOut(await this.visible(caller, id));
  }

  private values(input: ContractInput): repo.ContractValues {
    return {
      locationId: input.locationId, name: input.name, billingDay: input.billingDay, period: input.period, currency: input.currency,
      baseFeeMinor: decimalUnits(input.baseFee, minorDigits(input.currency)), includedPages: input.includedPages, prices: input.prices, startsOn: input.startsOn, endsOn: input.endsOn ?? null,
    };
  }

  async create(caller: Caller, input: ContractInput): Promise<Contract> {
    assertInScope(caller, input.locationId);
    const id = await this.db.transaction(async (tx) => {
      const made = await repo.insertContract(tx, this.values(input), caller.userId);
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.contractCreated', objectClass: 'LocationDao', objectId: input.locationId, locationId: input.locationId, params: { name: input.name, id: made } }, tx);
      return made;
    });
    return this.get(caller, id);
  }

  async update(caller: Caller, id: number, input: ContractInput): Promise<Contract> {
    const before = await this.visible(caller, id);
    assertInScope(caller, input.locationId);
    // A contract moved to another location keeps only serials of that location's devices in reach: the caller re-adds the others.
    await this.db.transaction(async (tx) => {
      await repo.updateContract(tx, id, this.values(input));
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.contractChanged', objectClass: 'LocationDao', objectId: input.locationId, locationId: before.locationId, params: { name: input.name, id } }, tx);
    });
    return this.get(caller, id);
  }

  /** Deletes a contract with its devices and open runs; one with closed runs is refused (409): what was invoiced stays. */
  async remove(caller: Caller, id: number): Promise<void> {
    const c = await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      const closed = await repo.closedRunCount(tx, id);
      if (closed > 0) throw new AppError('CONFLICT', { key: 'billing.hasClosedRuns', params: { count: closed } });
      await repo.deleteContract(tx, id);
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.contractDeleted', objectClass: 'LocationDao', objectId: c.locationId, locationId: c.locationId, params: { name: c.name, id } }, tx);
    });
  }

  async devices(caller: Caller, id: number): Promise<ContractDevice[]> {
    const c = await this.visible(caller, id);
    return repo.contractDevices(this.db, id, await this.reach(c));
  }

  /** Adds a device by serial: it must be a device of the contract's location or one below it. */
  async addDevice(caller: Caller, id: number, input: ContractDeviceInput): Promise<ContractDevice[]> {
    const c = await this.visible(caller, id);
    const reach = await this.reach(c);
    if ((await repo.deviceOfSerial(this.db, input.serialNumber, reach)) === null) throw invalid('serialNumber', 'billing.unknownSerial');
    await this.db.transaction(async (tx) => {
      const made = await repo.insertContractDevice(tx, id, { serialNumber: input.serialNumber, equipmentId: input.equipmentId || null, joinedOn: input.joinedOn, leftOn: input.leftOn ?? null });
      if (made === null) throw conflict('billing.serialTaken');
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.deviceAdded', objectClass: 'LocationDao', objectId: c.locationId, locationId: c.locationId, params: { name: c.name, serial: input.serialNumber, day: input.joinedOn } }, tx);
    });
    return repo.contractDevices(this.db, id, reach);
  }

  /** The contract device, if it is of a contract the caller sees. */
  private async contractDevice(caller: Caller, id: number, deviceId: number) {
    const c = await this.visible(caller, id);
    const d = await repo.contractDeviceById(this.db, deviceId);
    if (!d || d.contractId !== id) throw notFound();
    return { c, d };
  }

  async changeDevice(caller: Caller, id: number, deviceId: number, input: { equipmentId?: string | null; leftOn: string | null }): Promise<ContractDevice[]> {
    const { c, d } = await this.contractDevice(caller, id, deviceId);
    if (input.leftOn && input.leftOn < d.joinedOn) throw invalid('leftOn', 'billing.endBeforeStart');
    await this.db.transaction(async (tx) => {
      await repo.updateContractDevice(tx, deviceId, { equipmentId: input.equipmentId || null, leftOn: input.leftOn });
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.deviceChanged', objectClass: 'LocationDao', objectId: c.locationId, locationId: c.locationId, params: { name: c.name, serial: d.serialNumber, day: input.leftOn ?? '—' } }, tx);
    });
    return repo.contractDevices(this.db, id, await this.reach(c));
  }

  async removeDevice(caller: Caller, id: number, deviceId: number): Promise<ContractDevice[]> {
    const { c, d } = await this.contractDevice(caller, id, deviceId);
    await this.db.transaction(async (tx) => {
      await repo.deleteContractDevice(tx, deviceId);
      await this.log.byCaller(caller, { group: 'DEVICES', level: 'I', messageCode: 'billing.deviceRemoved', objectClass: 'LocationDao', objectId: c.locationId, locationId: c.locationId, params: { name: c.name, serial: d.serialNumber } }, tx);
    });
    return repo.contractDevices(this.db, id, await this.reach(c));
  }

  /** A serial's read on or before a day (an ERP's `mostRecentPriorTo`), of a device in the caller's locations. */
  async readOn(caller: Caller, serial: string, day: string) {
    const r = await repo.readOn(this.db, caller.allLocations ? await allLocationIds(this.db) : [...caller.scope], serial, day);
    if (!r) throw notFound();
    return { serialNumber: serial, deviceId: r.deviceId, date: r.date, meters: r.meters as Record<string, number | null> };
  }
}
