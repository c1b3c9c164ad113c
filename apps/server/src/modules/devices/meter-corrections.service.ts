import type { MeterCorrection, MeterCorrectionInput } from '@pagewatch/contracts/meter-reads';
import { conflict, notFound } from '../../lib/app-error.ts';
import { assertInScope, type Caller } from '../../lib/caller.ts';
import { DomainService } from '../event-logs/index.ts';
import { deviceRow } from './devices.repository.ts';
import { correctionsOf, insertCorrection, withdrawCorrection } from './meter-corrections.repository.ts';
import './meter-corrections.messages.ts';

/**
 * Meter corrections of a device (issue 41): listed with MNU_DEVICES.READ, entered and withdrawn
 * with BTN_EDIT_DEVICE.EXECUTE, always on a device of the caller's locations. Every change is in
 * the event log; a correction is never removed, only withdrawn.
 */
export class MeterCorrectionsService extends DomainService {
  /** The device, or 404; 403 when it is outside the caller's locations (as every device write). */
  private async device(caller: Caller, id: number) {
    const row = await deviceRow(this.db, id);
    if (!row) throw notFound();
    assertInScope(caller, row.d.locationId);
    return row.d;
  }

  async list(caller: Caller, deviceId: number): Promise<MeterCorrection[]> {
    await this.device(caller, deviceId);
    return correctionsOf(this.db, deviceId);
  }

  async add(caller: Caller, deviceId: number, input: MeterCorrectionInput): Promise<MeterCorrection[]> {
    const d = await this.device(caller, deviceId);
    await this.db.transaction(async (tx) => {
      const id = await insertCorrection(tx, deviceId, input, caller.userId);
      await this.log.write({
        group: 'DEVICES', level: 'I', messageCode: 'device.meterCorrected', userId: caller.userId, objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { actor: caller.login, id, device: d.serialNumber ?? d.ip, meter: input.meter, offset: input.offset, from: input.fromDate, reason: input.reason },
      }, tx);
    });
    return correctionsOf(this.db, deviceId);
  }

  async withdraw(caller: Caller, deviceId: number, id: number, reason: string): Promise<MeterCorrection[]> {
    const d = await this.device(caller, deviceId);
    const existing = (await correctionsOf(this.db, deviceId)).find((c) => c.id === id);
    if (!existing) throw notFound();
    if (existing.withdrawnAt) throw conflict('meterCorrections.alreadyWithdrawn');
    await this.db.transaction(async (tx) => {
      const done = await withdrawCorrection(tx, deviceId, id, reason, caller.userId);
      if (!done) throw conflict('meterCorrections.alreadyWithdrawn');
      await this.log.write({
        group: 'DEVICES', level: 'W', messageCode: 'device.meterCorrectionWithdrawn', userId: caller.userId, objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { actor: caller.login, id, device: d.serialNumber ?? d.ip, meter: done.meter, offset: done.offset, from: done.fromDate, reason },
      }, tx);
    });
    return correctionsOf(this.db, deviceId);
  }
}
