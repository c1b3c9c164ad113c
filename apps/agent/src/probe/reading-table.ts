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
  const counters = (
    [['Total', c.total], ['Power on', c.powerOn], ['Mono', c.mono], ['Colour', c.color], ['A3', c.a3], ['A4', c.a4],
      ['Copies', c.copies], ['Scans', c.scans], ['Fax', c.fax], ['Duplex', c.duplex]] as const
  ).filter(([, v]) => v !== null);
  const parts = [
    table(['Device', ''], identity),
    table(['Counter', 'Value'], [...counters, ...c.vendor.map((v) => [v.name, v.value])]),
    table(['#', 'Supply', 'Type', 'Colour', 'Level', 'Max', 'Percent'],
      r.supplies.map((s) => [s.index, s.description, s.type, s.colorant, s.level, s.maxCapacity, percent(s.percent, s.levelState)])),
    table(['#', 'Tray', 'Level', 'Max', 'Percent'],
      r.trays.map((t) => [t.index, t.name, t.level, t.maxCapacity, percent(t.percent, t.levelState)])),
  ];
  if (r.problems.length > 0) parts.push(`Problems:\n${r.problems.map((p) => `  - ${p}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}
