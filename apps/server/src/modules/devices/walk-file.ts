/**
 * A stored walk as net-snmp's `snmpwalk -On` prints it (`.1.3.6.1.2.1.1.1.0 = STRING: "…"`),
 * the format snmpsim and MIB tools read, so a device no profile knows can be replayed.
 * Rows come from the agent as [oid, type, value]; octet strings that were not text arrive as
 * `0x<hex>`.
 */
const TYPES: Record<string, (v: string) => string> = {
  integer: (v) => `INTEGER: ${v}`,
  octets: (v) => (/^0x([0-9a-f]{2})*$/i.test(v) && v.length > 2 ? `Hex-STRING: ${hexBytes(v.slice(2))}` : `STRING: "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`),
  oid: (v) => `OID: ${v.startsWith('.') ? v : `.${v}`}`,
  ip: (v) => `IpAddress: ${v}`,
  counter32: (v) => `Counter32: ${v}`,
  gauge32: (v) => `Gauge32: ${v}`,
  timeticks: (v) => `Timeticks: (${v}) ${ticks(Number(v))}`,
  counter64: (v) => `Counter64: ${v}`,
  opaque: (v) => `Opaque: ${v.startsWith('0x') ? hexBytes(v.slice(2)) : v}`,
  null: () => 'NULL',
};

const hexBytes = (hex: string) => (hex.match(/../g) ?? []).map((b) => b.toUpperCase()).join(' ');

function ticks(t: number): string {
  if (!Number.isFinite(t) || t < 0) return '0:0:00:00.00';
  const cs = t % 100;
  const s = Math.floor(t / 100);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 86400)}:${Math.floor((s % 86400) / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}.${pad(cs)}`;
}

export function walkLine([oid, type, value]: [string, string, string]): string {
  const format = TYPES[type] ?? ((v: string) => `STRING: "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
  // One line per value: a newline inside a string would start a new record for a reader.
  return `${oid.startsWith('.') ? oid : `.${oid}`} = ${format(value).replace(/\r?\n/g, ' ')}`;
}

export function walkFile(rows: [string, string, string][]): string {
  return rows.map(walkLine).join('\n') + (rows.length ? '\n' : '');
}

/** A file name safe on every system: `<serial or ip>_<id>.walk`. */
export function walkFileName(d: { id: number; serialNumber: string | null; ip: string; modelCode: string | null }): string {
  const base = [d.modelCode, d.serialNumber ?? d.ip].filter(Boolean).join('_').replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 100);
  return `${base || 'device'}_${d.id}.walk`;
}
