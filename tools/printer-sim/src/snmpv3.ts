import { BerError, PDU, TAG, ber, decodePdu, encodePduRaw, encodeVarbind } from '@pagewatch/snmp/ber-codec';
import type { MibView } from './mib-view.ts';
import { answerPdu, encodeResponse } from './responder.ts';

/** What a simulated printer's SNMPv3 engine is (RFC 3414): its id, boots and time. */
export type V3Engine = { id: Buffer; boots: number; time: () => number; users: ReadonlySet<string> };

const USM_STATS = {
  unsupportedSecLevels: '1.3.6.1.6.3.15.1.1.1.0',
  unknownUserNames: '1.3.6.1.6.3.15.1.1.3.0',
  unknownEngineIDs: '1.3.6.1.6.3.15.1.1.4.0',
} as const;
const FLAG_AUTH = 0x01;
const FLAG_PRIV = 0x02;
const USM = 3;

/** An engine id in RFC 3411 format 4 (text) under a private enterprise number of our own. */
export function engineIdFor(name: string): Buffer {
  return Buffer.concat([Buffer.from([0x80, 0x00, 0xfd, 0xe7, 0x04]), Buffer.from(name.slice(0, 27))]);
}

const octets = (b: Buffer | string): Buffer => ber.tlv(TAG.octets, typeof b === 'string' ? Buffer.from(b) : b);

function encodeV3(engine: V3Engine, msgId: number, user: string, contextName: Buffer, pdu: Buffer): Buffer {
  const global = ber.encodeSequence([ber.signedBytesTlv(msgId), ber.signedBytesTlv(65507), octets(Buffer.from([0])), ber.signedBytesTlv(USM)]);
  const usm = ber.encodeSequence([octets(engine.id), ber.signedBytesTlv(engine.boots), ber.signedBytesTlv(engine.time()), octets(user), octets(''), octets('')]);
  const scoped = ber.encodeSequence([octets(engine.id), octets(contextName), pdu]);
  return ber.encodeSequence([ber.signedBytesTlv(3), global, octets(usm), scoped]);
}

const counters = { unknownEngineIDs: 0, unknownUserNames: 0, unsupportedSecLevels: 0 };

/**
 * SNMPv3 with the User-based Security Model at noAuthNoPriv only: engine discovery (a Report
 * with our engine id), then GET/GETNEXT/GETBULK for known users. Authenticated or encrypted
 * requests get the unsupportedSecLevels report, as an agent configured that way answers.
 */
export function respondV3(packet: Buffer, engine: V3Engine, view: () => MibView): Buffer | null {
  try {
    const { expect, readInt } = ber;
    const end = packet.length;
    const outer = expect(packet, 0, end, TAG.sequence);
    const version = expect(packet, outer.start, outer.end, TAG.integer);
    if (readInt(packet, version) !== 3) return null;
    const global = expect(packet, version.end, outer.end, TAG.sequence);
    const msgId = expect(packet, global.start, global.end, TAG.integer);
    const maxSize = expect(packet, msgId.end, global.end, TAG.integer);
    const flags = expect(packet, maxSize.end, global.end, TAG.octets);
    const model = expect(packet, flags.end, global.end, TAG.integer);
    if (readInt(packet, model) !== USM) return null;
    const flagBits = packet[flags.start] ?? 0;
    const sec = expect(packet, global.end, outer.end, TAG.octets);
    const usm = expect(packet, sec.start, sec.end, TAG.sequence);
    const engineId = expect(packet, usm.start, usm.end, TAG.octets);
    const boots = expect(packet, engineId.end, usm.end, TAG.integer);
    const time = expect(packet, boots.end, usm.end, TAG.integer);
    const userName = expect(packet, time.end, usm.end, TAG.octets);
    const user = packet.subarray(userName.start, userName.end).toString('utf8');
    const id = readInt(packet, msgId);
    if (flagBits & FLAG_PRIV) {
      // The scoped PDU is encrypted: we cannot even read its request id.
      counters.unsupportedSecLevels++;
      return encodeV3(engine, id, user, Buffer.alloc(0), report(0, USM_STATS.unsupportedSecLevels, counters.unsupportedSecLevels));
    }
    const scoped = expect(packet, sec.end, outer.end, TAG.sequence);
    const ctxEngine = expect(packet, scoped.start, scoped.end, TAG.octets);
    const ctxName = expect(packet, ctxEngine.end, scoped.end, TAG.octets);
    const pdu = decodePdu(packet, ctxName.end, scoped.end);
    const contextName = Buffer.from(packet.subarray(ctxName.start, ctxName.end));
    const given = packet.subarray(engineId.start, engineId.end);
    if (!given.equals(engine.id)) {
      counters.unknownEngineIDs++;
      return encodeV3(engine, id, user, contextName, report(pdu.requestId, USM_STATS.unknownEngineIDs, counters.unknownEngineIDs));
    }
    if (flagBits & FLAG_AUTH) {
      counters.unsupportedSecLevels++;
      return encodeV3(engine, id, user, contextName, report(pdu.requestId, USM_STATS.unsupportedSecLevels, counters.unsupportedSecLevels));
    }
    if (!engine.users.has(user)) {
      counters.unknownUserNames++;
      return encodeV3(engine, id, user, contextName, report(pdu.requestId, USM_STATS.unknownUserNames, counters.unknownUserNames));
    }
    const answer = answerPdu(pdu, false, view());
    if (!answer) return null;
    return encodeV3(engine, id, user, contextName, encodeResponse(pdu.requestId, answer));
  } catch (error) {
    if (error instanceof BerError) return null;
    throw error;
  }
}

function report(requestId: number, oid: string, count: number): Buffer {
  return encodePduRaw({ type: PDU.report, requestId, errorStatus: 0, errorIndex: 0 }, [encodeVarbind({ oid, tag: TAG.counter32, value: count })]);
}
