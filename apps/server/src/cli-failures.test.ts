import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository's command-line tools (issue 52, finding 7), each run as the README says
 * (`npm run <script> -- …`) into a failure it cannot avoid: it ends with one clear line on
 * stderr and a non-zero exit code, never a stack trace.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
const CLOSED = 'postgres://pagewatch@127.0.0.1:1/pagewatch';
const KEY = Buffer.alloc(32, 7).toString('base64');

/** Each tool, a failure of it, and what its one line must say. */
const FAILURES: { script: string; args: string[]; env?: Record<string, string>; says: RegExp }[] = [
  { script: 'license', args: ['keys', '--out', '/nonexistent-pagewatch/keys'], says: /^license: .*no such file or directory.*\/nonexistent-pagewatch\/keys/ },
  { script: 'rotate-secret-key', args: [], env: { DATABASE_URL: CLOSED, PAGEWATCH_SECRET_KEY: KEY, PAGEWATCH_NEW_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') }, says: /^rotate-secret-key: (connect ECONNREFUSED 127\.0\.0\.1:1|Connection terminated unexpectedly)$/ },
  { script: 'backup', args: ['/nonexistent-pagewatch/backup.tar.gz'], env: { DATABASE_URL: CLOSED }, says: /^Backup failed: the folder \/nonexistent-pagewatch does not exist\.$/ },
  { script: 'restore', args: ['/nonexistent-pagewatch/backup.tar.gz'], says: /does not exist/ },
  { script: 'build:agent', args: ['--release-key', '/nonexistent-pagewatch/release.pem'], says: /^build:agent: .*no such file or directory.*release\.pem/ },
  { script: 'agent', args: ['run', '--config', '/nonexistent-pagewatch/agent.json'], says: /nonexistent-pagewatch/ },
  { script: 'probe', args: ['nonexistent.invalid'], says: /^probe: cannot talk to nonexistent\.invalid/ },
  { script: 'sim', args: ['--count', 'many'], says: /^sim: / },
];

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...process.env, ...env, PAGEWATCH_DATA_DIR: '/nonexistent-pagewatch/data' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the command-line tools fail with one clear line', () => {
  it('covers every tool of package.json, each with the shared failure handling (tools/cli-failure.cjs)', () => {
    const tools = Object.entries(scripts).filter(([name, line]) => line.startsWith('node -r ./tools/require-node.cjs') && name !== 'dev');
    expect(tools.filter(([, line]) => !line.includes('-r ./tools/cli-failure.cjs')).map(([name]) => name)).toEqual([]);
    // The benchmarks and the demo need a running fleet to fail in: they share the handling above.
    expect(FAILURES.map((f) => f.script).sort()).toEqual(tools.map(([name]) => name).filter((n) => !n.startsWith('bench:') && n !== 'demo').sort());
  });

  for (const f of FAILURES) {
    it(`npm run ${f.script} -- ${f.args.join(' ')}`, async () => {
      const { code, stderr } = await run(f.script, f.args, f.env);
      expect(code, stderr).not.toBe(0);
      expect(stderr, stderr).not.toMatch(/^\s+at /m);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(f.says);
    }, 120_000);
  }
});
