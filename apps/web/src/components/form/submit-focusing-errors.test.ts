import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstErrorPath } from './submit-focusing-errors.ts';

describe('firstErrorPath', () => {
  const paths = ['login', 'email', 'password', 'locationIds'];

  it('takes the first broken field in page order, not in the order of the errors', () => {
    expect(firstErrorPath(paths, { password: 'general.mandatory', email: 'general.mandatory' })).toBe('email');
  });

  it('counts a nested error for its field and ignores empty ones', () => {
    expect(firstErrorPath(paths, { login: null, 'locationIds.0': 'x' })).toBe('locationIds');
    expect(firstErrorPath(paths, { roleIds: 'x' })).toBeNull();
    expect(firstErrorPath(paths, {})).toBeNull();
  });
});

/** Every file below `dir` with one of the extensions. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

describe('forms of the features', () => {
  it('submit through submitFocusingErrors, so a failed validation focuses the first broken field', () => {
    const features = join(import.meta.dirname, '../../features');
    const bare = sources(features).filter((f) => /\bform\.onSubmit\(/.test(readFileSync(f, 'utf8')));
    expect(bare).toEqual([]);
  });
});
