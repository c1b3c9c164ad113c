import type { MeterCorrection, MeterCorrectionInput, MeterResetInput } from '@pagewatch/contracts/meter-reads';
import { conflict, invalid, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import { DomainService } from '../event-logs/index.ts';
import { deviceInScope } from './devices.service.ts';
import { correctionsOf, insertCorrection, insertReset, lastReadsBefore, withdrawCorrection } from './meter-corrections.repository.ts';
import './meter-corrections.messages.ts';

/**
 * Meter corrections of a device (issue 41): listed with MNU_DEVICES.READ, entered and withdrawn
 * with BTN_EDIT_DEVICE.EXECUTE, always on a device of the caller's locations. Every change is in
 * the event log; a correction is never removed, only withdrawn.
 */
export class MeterCorrectionsService extends DomainService {
  private async device(caller: Caller, id: number) {
    return (await deviceInScope(this.db, caller, id)).d;
  }

  async list(caller: Caller, deviceId: number): Promise<MeterCorrection[]> {
    await this.device(caller, deviceId);
    return correctionsOf(this.db, deviceId);
  }

  async add(caller: Caller, deviceId: number, input: MeterCorrectionInput): Promise<MeterCorrection[]> {
    const d = await this.device(caller, deviceId);
    await this.db.transaction(async (tx) => {
      const id = await insertCorrection(tx, deviceId, input, caller.userId);
      await this.log.byCaller(caller, {
        group: 'DEVICES', level: 'I', messageCode: 'device.meterCorrected', objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { id, device: d.serialNumber ?? d.ip, meter: input.meter, offset: input.offset, from: input.fromDate, reason: input.reason },
      }, tx);
    });
    return correctionsOf(this.db, deviceId);
  }

  /**
   * A counter reset (a board swap, issue 54) as one act: from `fromDate` on, every meter the
   * device read before that day reads its last value before it more, so the meters go on from
   * where the old board stopped, together (black plus colour still the total).
   */
  async reset(caller: Caller, deviceId: number, input: MeterResetInput): Promise<MeterCorrection[]> {
    const d = await this.device(caller, deviceId);
    await this.db.transaction(async (tx) => {
      const offsets = await lastReadsBefore(tx, deviceId, input.fromDate);
      if (!Object.keys(offsets).length) throw invalid('fromDate', 'meterCorrections.nothingToCarry');
      const id = await insertReset(tx, deviceId, input.fromDate, offsets, input.reason, caller.userId);
      await this.log.byCaller(caller, {
        group: 'DEVICES', level: 'I', messageCode: 'device.meterReset', objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { id, device: d.serialNumber ?? d.ip, from: input.fromDate, meters: Object.keys(offsets).length, total: offsets.total ?? 0, reason: input.reason },
      }, tx);
    });
    return correctionsOf(this.db, deviceId);
  }

  async withdraw(caller: Caller, deviceId: number, id: number, reason: string): Promise<MeterCorrection[]> {
    const d = await this.device(caller, deviceId);
    await this.db.transaction(async (tx) => {
      const done = await withdrawCorrection(tx, deviceId, id, reason, caller.userId);
      // Nothing withdrawn: no such correction on the device (404), or one withdrawn before (409).
      if (!done) throw (await correctionsOf(tx, deviceId)).some((c) => c.id === id) ? conflict('meterCorrections.alreadyWithdrawn') : notFound();
      await this.log.byCaller(caller, {
        group: 'DEVICES', level: 'W', messageCode: 'device.meterCorrectionWithdrawn', objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { id, device: d.serialNumber ?? d.ip, meter: done.meter, offset: done.offset, from: done.fromDate, reason },
      }, tx);
    });
    return correctionsOf(this.db, deviceId);
  }
}
