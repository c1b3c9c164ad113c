import { BerError, PDU, TAG, decodeMessage, encodeMessageRaw, encodePduRaw, encodeVarbind } from '@pagewatch/snmp/ber-codec';
import type { WireMessage, WirePdu } from '@pagewatch/snmp/ber-codec';
import type { MibView } from './mib-view.ts';

/** Keeps a GETBULK answer well inside one UDP datagram. */
const MAX_RESPONSE_BYTES = 60_000;
const MAX_BULK_VARBINDS = 1_000;
const NO_SUCH_NAME = 2;
const TOO_BIG = 1;

const exception = (oid: string, tag: number): Buffer => encodeVarbind({ oid, tag, value: null });

export type PduAnswer = { errorStatus: number; errorIndex: number; varbinds: Buffer[] };

/**
 * Answers one SNMP v1/v2c request against a MIB view. Returns null for anything a real agent
 * drops silently: undecodable packets, a wrong community, PDUs it does not serve.
 */
export function respond(packet: Buffer, community: string, view: () => MibView): Buffer | null {
  let msg: WireMessage;
  try {
    msg = decodeMessage(packet);
  } catch (error) {
    if (error instanceof BerError) return null;
    throw error;
  }
  if (msg.community !== community) return null;
  const answer = answerPdu(msg.pdu, msg.version === 0, view());
  if (!answer) return null;
  return encodeMessageRaw(msg.version, msg.community, encodeResponse(msg.pdu.requestId, answer));
}

/** The Response PDU, cut to an error if it would not fit a datagram. */
export function encodeResponse(requestId: number, answer: PduAnswer): Buffer {
  const body = encodePduRaw({ type: PDU.response, requestId, errorStatus: answer.errorStatus, errorIndex: answer.errorIndex }, answer.varbinds);
  if (body.length <= 65_000) return body;
  return encodePduRaw({ type: PDU.response, requestId, errorStatus: TOO_BIG, errorIndex: 0 }, []);
}

/** GET, GETNEXT and GETBULK (not for v1) against the view; null for other PDUs. */
export function answerPdu(pdu: WirePdu, v1: boolean, mib: MibView): PduAnswer | null {
  const out: Buffer[] = [];
  let errorStatus = 0;
  let errorIndex = 0;
  const fail = (status: number, index: number): void => {
    errorStatus = status;
    errorIndex = index;
  };

  if (pdu.type === PDU.get) {
    pdu.varbinds.forEach((vb, i) => {
      const entry = mib.get(vb.oid);
      if (entry) out.push(entry.encoded);
      else if (v1) fail(NO_SUCH_NAME, i + 1);
      else out.push(exception(vb.oid, TAG.noSuchObject));
    });
  } else if (pdu.type === PDU.getNext) {
    pdu.varbinds.forEach((vb, i) => {
      const entry = mib.entries[mib.nextIndex(vb.oid)];
      if (entry) out.push(entry.encoded);
      else if (v1) fail(NO_SUCH_NAME, i + 1);
      else out.push(exception(vb.oid, TAG.endOfMibView));
    });
  } else if (pdu.type === PDU.getBulk && !v1) {
    const nonRepeaters = Math.max(0, Math.min(pdu.errorStatus, pdu.varbinds.length));
    const maxRepetitions = Math.max(0, pdu.errorIndex);
    let size = 0;
    const push = (b: Buffer): boolean => {
      if (size + b.length > MAX_RESPONSE_BYTES || out.length >= MAX_BULK_VARBINDS) return false;
      out.push(b);
      size += b.length;
      return true;
    };
    for (let i = 0; i < nonRepeaters; i++) {
      const oid = pdu.varbinds[i]!.oid;
      const entry = mib.entries[mib.nextIndex(oid)];
      push(entry ? entry.encoded : exception(oid, TAG.endOfMibView));
    }
    const repeaters = pdu.varbinds.slice(nonRepeaters);
    const positions = repeaters.map((vb) => mib.nextIndex(vb.oid));
    outer: for (let r = 0; r < maxRepetitions && repeaters.length > 0; r++) {
      let allDone = true;
      for (let j = 0; j < repeaters.length; j++) {
        const entry = mib.entries[positions[j]!];
        const ok = entry
          ? push(entry.encoded)
          : push(exception(r === 0 ? repeaters[j]!.oid : mib.entries[mib.entries.length - 1]!.oid, TAG.endOfMibView));
        if (!ok) break outer;
        if (entry) {
          positions[j]!++;
          allDone = false;
        }
      }
      if (allDone) break;
    }
  } else {
    return null;
  }

  if (errorStatus !== 0) {
    // v1 errors echo the request's varbinds.
    out.length = 0;
    for (const vb of pdu.varbinds) out.push(encodeVarbind({ oid: vb.oid, tag: TAG.null, value: null }));
  }
  return { errorStatus, errorIndex, varbinds: out };
}
