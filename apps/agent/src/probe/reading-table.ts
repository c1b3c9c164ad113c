import type { Reading } from '@pagewatch/contracts/reading';

const show = (v: unknown): string => (v === null || v === undefined || v === '' ? '-' : String(v));

function table(headers: string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const cells = rows.map((r) => r.map(show));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

const percent = (p: number | null, state: string | null): string => (p !== null ? `${p}%` : (state?.toLowerCase().replace('_', ' ') ?? '-'));

/** The reading as a readable text report for a terminal. */
export function formatReading(r: Reading): string {
  const c = r.counters;
  const identity: unknown[][] = [
    ['Vendor', r.vendor], ['Model', r.model], ['Serial number', r.serialNumber], ['Firmware', r.firmware],
    ['MAC address', r.macAddress], ['Host name', r.hostName], ['Location', r.location],
    ['Printer', r.isPrinter ? 'yes' : 'no'], ['Type', r.deviceType], ['Colour', r.colorType], ['Paper', r.paperFormat],
    ['Status', [r.status.deviceStatus, r.status.printerStatus].filter(Boolean).join(', ') || null],
    ['Errors', r.status.errors.join(', ') || null],
    ['sysObjectID', r.sysObjectID], ['sysDescr', r.sysDescr], ['Profile', `${r.profileId} (models pack ${r.modelsVersion})`],
  ];
  // Each counter with how it was read: the OID and the profile's rule, or how it was derived.
  const counters = (
    [['Total', 'total'], ['Power on', 'powerOn'], ['Mono', 'mono'], ['Colour', 'color'], ['A3', 'a3'], ['A3 mono', 'a3Bw'],
      ['A3 colour', 'a3Color'], ['A4', 'a4'], ['A4 mono', 'a4Bw'], ['A4 colour', 'a4Color'], ['Copies', 'copies'], ['Scans', 'scans'],
      ['Fax', 'fax'], ['Duplex', 'duplex']] as const
  ).filter(([, k]) => c[k] !== null).map(([label, k]) => [label, c[k], c.sources[k] ?? null]);
  const totals = c.markerTotal !== null && c.vendorTotal !== null && c.markerTotal !== c.vendorTotal
    ? [['Printer-MIB total', c.markerTotal, 'prtMarkerLifeCount (not billed: the vendor total is)']]
    : [];
  const parts = [
    table(['Device', ''], identity),
    table(['Counter', 'Value', 'How this was read'], [...counters, ...totals, ...c.vendor.map((v) => [v.name, v.value, v.oid])]),
    // Each supply's level with where it came from: the Printer-MIB, or the vendor's record or private column.
    table(['#', 'Supply', 'Type', 'Colour', 'Level', 'Max', 'Percent', 'How this was read'],
      r.supplies.map((s) => [s.index, s.description, s.type, s.colorant, s.level, s.maxCapacity, percent(s.percent, s.levelState), s.source])),
    table(['#', 'Tray', 'Level', 'Max', 'Percent'],
      r.trays.map((t) => [t.index, t.name, t.level, t.maxCapacity, percent(t.percent, t.levelState)])),
  ];
  if (c.splitMismatch) {
    parts.push(`Data quality: black-and-white + colour = ${c.splitMismatch.monoPlusColor}, the billing total is ${c.splitMismatch.total}`);
  }
  if (r.problems.length > 0) parts.push(`Problems:\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}
