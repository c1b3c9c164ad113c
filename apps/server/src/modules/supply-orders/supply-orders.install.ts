import type { Db } from '../../db/client.ts';
import { insertLogs, renderLog } from '../event-logs/index.ts';
import { installReplaced } from './supply-orders.repository.ts';
import './supply-orders.messages.ts';

/**
 * The ingest's replacement events close their supplies' open orders as INSTALLED, in the
 * ingest's own transaction, each with a line in the event log (group DEVICES). No replacement:
 * no statement.
 */
export async function installReplacedOrders(tx: Db, groupId: number, replaced: { deviceId: number; supplyIndex: number; at: Date }[]): Promise<void> {
  const done = await installReplaced(tx, replaced);
  if (!done.length) return;
  await insertLogs(tx, done.map((o) => {
    const params = { id: o.id, part: o.partName ?? '', device: o.serialNumber ?? o.ip ?? String(o.deviceId) };
    return {
      eventGroupId: groupId, logLevel: 'I', message: renderLog('en', 'supplyOrder.installed', params), messageRu: renderLog('ru', 'supplyOrder.installed', params), messageCode: 'supplyOrder.installed', messageParams: params,
      locationId: o.locationId, objectClass: 'DeviceDao', objectId: o.deviceId, logDatetime: new Date(o.at),
    };
  }));
}
