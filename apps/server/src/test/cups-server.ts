import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CUPSD = '/usr/sbin/cupsd';

/** Whether Debian's cups is installed (`.ci/run` installs it); the tests skip without it. */
export const cupsAvailable = existsSync(CUPSD) && ['/usr/bin/lp', '/usr/sbin/lpadmin'].every(existsSync);

/** Stops a server the test started, by its PID, and waits until it is gone. */
export async function stopChild(c: ChildProcess | null): Promise<void> {
  if (!c || c.exitCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await exited;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type Cups = {
  port: number;
  addPrinter(name: string, deviceUri: string): Promise<void>;
  /** Submits a small text job as `user` with `copies` (and `-o` options, such as print-color-mode=monochrome); returns its job id. */
  print(printer: string, user: string, copies: number, title?: string, options?: string[]): Promise<number>;
  /** Waits until CUPS has no job left to print. */
  idle(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A CUPS of the test's own on 127.0.0.1 (its own config, spool and state in a temporary
 * folder), whose job history is public to any reader, as a print server a fleet owner reads.
 */
export async function startCups(): Promise<Cups> {
  const dir = mkdtempSync(join(tmpdir(), 'pagewatch-cups-'));
  for (const sub of ['spool', 'cache', 'state', 'log', 'ppd']) mkdirSync(join(dir, sub));
  // cupsd hands jobs to filters and backends as the lp user.
  chmodSync(dir, 0o777);
  for (const sub of ['spool', 'cache', 'state', 'log']) chmodSync(join(dir, sub), 0o777);
  const port = await freePort();
  writeFileSync(join(dir, 'cupsd.conf'), [
    `Listen 127.0.0.1:${port}`, 'LogLevel warn', 'DefaultAuthType None', 'PreserveJobHistory Yes', 'PreserveJobFiles No',
    'WebInterface No', 'Browsing No',
    '<Location />', '  Order allow,deny', '  Allow all', '</Location>',
    '<Policy default>', '  JobPrivateAccess all', '  JobPrivateValues none', '  SubscriptionPrivateAccess all', '  SubscriptionPrivateValues none',
    '  <Limit All>', '    Order deny,allow', '  </Limit>', '</Policy>', '',
  ].join('\n'));
  writeFileSync(join(dir, 'cups-files.conf'), [
    `ServerRoot ${dir}`, `RequestRoot ${join(dir, 'spool')}`, `CacheDir ${join(dir, 'cache')}`, `StateDir ${join(dir, 'state')}`,
    'ErrorLog stderr', `AccessLog ${join(dir, 'log', 'access_log')}`, `PageLog ${join(dir, 'log', 'page_log')}`,
    // Printers whose output is discarded: file:///dev/null.
    'FileDevice Yes', 'User lp', 'Group lp', 'SystemGroup root', '',
  ].join('\n'));
  writeFileSync(join(dir, 'doc.txt'), 'Pagewatch test page\n');
  const host = `127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let log = '';

  // `lpstat -r` exits 0 whether or not the scheduler answers: its words tell (in the C locale).
  const running = () =>
    run('lpstat', ['-h', host, '-r'], { env: { ...process.env, LC_ALL: 'C', LANG: 'C' } }).then(({ stdout }) => stdout.trim() === 'scheduler is running', () => false);
  const ready = async () => {
    for (let i = 0; i < 300; i++) {
      if (await running()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`cupsd did not start: ${log.slice(-2000)}`);
  };

  const cups: Cups = {
    port,
    async start() {
      child = spawn(CUPSD, ['-f', '-c', join(dir, 'cupsd.conf'), '-s', join(dir, 'cups-files.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (log += d));
      child.stderr!.on('data', (d) => (log += d));
      await ready();
    },
    async stop() {
      const c = child;
      child = null;
      await stopChild(c);
    },
    async addPrinter(name, deviceUri) {
      // The sample generic PostScript driver counts impressions (a raw queue would count none).
      await run('lpadmin', ['-h', host, '-p', name, '-v', deviceUri, '-m', 'drv:///sample.drv/generic.ppd', '-E']);
    },
    async print(printer, user, copies, title = 'test page', options = []) {
      const { stdout } = await run('lp', ['-h', host, '-d', printer, '-U', user, '-n', String(copies), '-t', title, ...options.flatMap((o) => ['-o', o]), join(dir, 'doc.txt')]);
      const m = /request id is \S+-(\d+)/.exec(stdout);
      if (!m) throw new Error(`lp: ${stdout}`);
      return Number(m[1]);
    },
    async idle() {
      for (let i = 0; i < 300; i++) {
        const { stdout } = await run('lpstat', ['-h', host, '-o']).catch(() => ({ stdout: 'x' }));
        if (!stdout.trim()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('CUPS jobs did not complete');
    },
    async close() {
      await cups.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cups.start();
  return cups;
}
