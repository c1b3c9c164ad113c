import type { ServiceResult } from '@pagewatch/contracts/devices';
import type { Db } from '../../db/client.ts';
import type { Lang } from '../../i18n/messages.ts';
import { translate } from '../../i18n/messages.ts';
import type { Caller } from '../../lib/caller.ts';
import { clearManaged, devicesBySerial, type DevicesService, setManaged } from '../devices/index.ts';
import { parseSerialFile } from './serial-file.ts';
import './maintenance.messages.ts';

/** How many not-found serials and invalid line numbers the message names before "…". */
const SHOWN = 50;
const listed = (items: (string | number)[]) => (items.length > SHOWN ? `${items.slice(0, SHOWN).join(', ')}, …` : items.join(', '));

/** The service screen's verbs: maintenance by a list of serial numbers, and stop for all. */
export class MaintenanceService {
  private readonly db: Db;
  private readonly devices: DevicesService;

  constructor(db: Db, devicesService: DevicesService) {
    this.db = db;
    this.devices = devicesService;
  }

  /** Maintenance on or off for the devices in the caller's scope whose serials the file lists. */
  async setBySerialFile(caller: Caller, data: Buffer, managedFlag: boolean, lang: Lang): Promise<ServiceResult> {
    const { serials, invalidLines } = parseSerialFile(data);
    const found = await devicesBySerial(this.db, serials, caller);
    const known = new Set(found.map((d) => d.serialNumber?.toLowerCase()));
    const notFound = serials.filter((s) => !known.has(s.toLowerCase()));
    const changed = await setManaged(this.db, found.map((d) => d.id), managedFlag, caller);
    if (changed.length) await this.devices.logActivity(caller, changed.length, managedFlag, 'device.activityByFile');
    const state = { key: managedFlag ? 'service.stateOn' : 'service.stateOff' };
    const parts = [translate(lang, 'service.result', { state, changed: changed.length, found: found.length })];
    if (notFound.length) parts.push(translate(lang, 'service.notFound', { count: notFound.length, serials: listed(notFound) }));
    if (invalidLines.length) parts.push(translate(lang, 'service.invalidLines', { count: invalidLines.length, lines: listed(invalidLines) }));
    return { message: parts.join(' '), changed: changed.length, notFound, invalidLines };
  }

  /** Stops maintenance for every device the caller sees. */
  async resetAll(caller: Caller, lang: Lang): Promise<ServiceResult> {
    const changed = await clearManaged(this.db, caller);
    if (changed.length) await this.devices.logActivity(caller, changed.length, false, 'device.activityReset');
    return { message: translate(lang, 'service.reset', { changed: changed.length }), changed: changed.length, notFound: [], invalidLines: [] };
  }
}
