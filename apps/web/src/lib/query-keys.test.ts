import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// An architecture check (issue 40): a query key is written once, in its feature's `api/` file
// or, shared, in lib/query-keys.ts. A key typed out in a page drifts from the one its grid or
// query really uses, and an invalidation naming it silently does nothing.
const SRC = join(import.meta.dirname, '..');
const KEY_HOMES = [/^features\/[^/]+\/api\//, /^lib\/query-keys\.ts$/];
const LITERAL_KEY = /queryKey\s*:\s*\[|(?:QueryData|QueriesData|Queries|Query)\(\s*\[/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

describe('query keys', () => {
  it('are never written as a literal array outside a feature’s api/ files and lib/query-keys.ts', () => {
    const offenders = sources(SRC).flatMap((path) => {
      const file = relative(SRC, path).split(sep).join('/');
      if (KEY_HOMES.some((home) => home.test(file))) return [];
      return readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) => (LITERAL_KEY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(offenders).toEqual([]);
  });
});
