import { LINE_CONTROL_CHARS, LONE_SURROGATE } from '@pagewatch/contracts/fields';

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const CONTROL_RUNS = new RegExp(`${LINE_CONTROL_CHARS.source}+`, 'g');
const BROKEN = new RegExp(`${LONE_SURROGATE.source}|\\u0000`);
const NULS = /\u0000/g;
/** Deeper than any reading: past it nothing is repaired and zod names what is wrong. */
const MAX_DEPTH = 6;

/**
 * Repairs broken text in one raw reading before it is checked (issue 39): half a surrogate pair
 * (a value cut inside an emoji) becomes U+FFFD, a control character in a reading's one-line
 * text a space, a NUL in a walk value U+FFFD. PostgreSQL refuses such text (and a whole batch
 * with it); a device's odd byte must cost that field's character, never the reading or the
 * batch. Returns the fields repaired, as paths under `reading` ("serialNumber",
 * "supplies.0.description") or "walk.<row>". Changes `item` in place (it is the parsed body).
 */
export function repairReadingText(item: unknown): string[] {
  const repaired: string[] = [];
  if (!item || typeof item !== 'object') return repaired;
  const { reading, walk } = item as { reading?: unknown; walk?: unknown };
  repairTree(reading, '', 0, repaired, (s) => s.replace(LONE_SURROGATES, '\uFFFD').replace(CONTROL_RUNS, ' ').trim(), (s) => BROKEN.test(s) || LINE_CONTROL_CHARS.test(s));
  if (Array.isArray(walk)) {
    walk.forEach((row, i) => {
      if (!Array.isArray(row)) return;
      let changed = false;
      row.forEach((cell, j) => {
        if (typeof cell === 'string' && BROKEN.test(cell)) {
          row[j] = cell.replace(LONE_SURROGATES, '\uFFFD').replace(NULS, '\uFFFD');
          changed = true;
        }
      });
      if (changed) repaired.push(`walk.${i}`);
    });
  }
  return repaired;
}

function repairTree(node: unknown, path: string, depth: number, out: string[], fix: (s: string) => string, broken: (s: string) => boolean): void {
  if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
  const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
  for (const [key, value] of entries) {
    const at = path ? `${path}.${key}` : String(key);
    if (typeof value === 'string') {
      if (broken(value)) {
        (node as Record<string | number, unknown>)[key] = fix(value);
        out.push(at);
      }
    } else repairTree(value, at, depth + 1, out, fix, broken);
  }
}
