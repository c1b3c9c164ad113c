import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * npm install makes every `bin` target of a workspace executable (chmod 755): one committed as
 * 644 shows as a changed mode in `git status` after each install (issue 56). Each is committed 755.
 */
describe('bin entries', () => {
  it('are committed executable, so npm install leaves the tree clean', () => {
    const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const wrong: string[] = [];
    for (const ws of workspaces) {
      const pkg = JSON.parse(readFileSync(join(ROOT, ws, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
      const targets = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
      for (const target of targets) {
        const path = join(ws, target);
        const mode = execFileSync('git', ['ls-files', '--stage', '--', path], { cwd: ROOT, encoding: 'utf8' }).split(' ')[0];
        if (mode !== '100755') wrong.push(`${path}: ${mode || 'not committed'}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
