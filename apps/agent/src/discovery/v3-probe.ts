import dgram from 'node:dgram';
import { PDU, TAG, ber, encodePduRaw, messageVersion } from '@pagewatch/snmp/ber-codec';

/**
 * SNMPv1/v2c agents drop a request with a community they do not accept, silently (RFC 3416;
 * at most a trap goes to their trap receiver), so a printer whose community was changed looks
 * switched off. An SNMPv3 engine discovery (RFC 3414, 4) needs no credentials and any v3 engine
 * answers it with a report: a device that does is up and running SNMP, and the silence was a
 * refusal. Asked only of devices heard from before with the range's community, never of a whole
 * range: a switch with a community of its own is not a fault to report.
 */
export const MAX_V3_PROBES = 256;

function discoveryRequest(msgId: number): Buffer {
  const octets = (b: Buffer): Buffer => ber.tlv(TAG.octets, b);
  const empty = Buffer.alloc(0);
  // msgFlags 0x04: reportable, no authentication, no privacy.
  const global = ber.encodeSequence([ber.signedBytesTlv(msgId), ber.signedBytesTlv(65_507), octets(Buffer.from([0x04])), ber.signedBytesTlv(3)]);
  const usm = ber.encodeSequence([octets(empty), ber.signedBytesTlv(0), ber.signedBytesTlv(0), octets(empty), octets(empty), octets(empty)]);
  const pdu = encodePduRaw({ type: PDU.get, requestId: msgId, errorStatus: 0, errorIndex: 0 }, []);
  const scoped = ber.encodeSequence([octets(empty), octets(empty), pdu]);
  return ber.encodeSequence([ber.signedBytesTlv(3), global, octets(usm), scoped]);
}

/**
 * The addresses among `ips` (at most MAX_V3_PROBES) whose SNMP engine answers a v3 discovery on
 * `port` within `timeoutMs`, each asked `tries` times (a lost packet must not hide a device).
 */
export async function answersV3(ips: string[], port: number, timeoutMs: number, tries = 2, signal?: AbortSignal): Promise<Set<string>> {
  const alive = new Set<string>();
  const asked = ips.slice(0, MAX_V3_PROBES);
  if (asked.length === 0) return alive;
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => resolve());
  });
  socket.on('error', () => undefined);
  const wanted = new Set(asked);
  socket.on('message', (packet, rinfo) => {
    if (wanted.has(rinfo.address) && messageVersion(packet) === 3) alive.add(rinfo.address);
  });
  const msgId = (Math.floor(Math.random() * 0x3fffffff) + 1) & 0x3fffffff;
  const request = discoveryRequest(msgId);
  for (let attempt = 0; attempt < tries && !signal?.aborted && alive.size < asked.length; attempt++) {
    for (const ip of asked) if (!alive.has(ip)) socket.send(request, port, ip);
    await new Promise((resolve) => setTimeout(resolve, timeoutMs));
  }
  socket.close();
  return alive;
}
