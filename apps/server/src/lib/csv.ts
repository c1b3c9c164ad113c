/**
 * CSV as spreadsheets read it: UTF-8 with a byte order mark, comma-separated, RFC 4180 quoting
 * (a field with a comma, quote or line break is quoted, quotes doubled), and a text cell that
 * starts with =, +, - or @ prefixed with ' so that a spreadsheet does not run it as a formula.
 */
export function csv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (v: unknown) => {
    if (v == null) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `\uFEFF${[columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n')}\r\n`;
}
