import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseXml } from '../../test/helpers/xml.ts';
import type { XmlElement } from '../../test/helpers/xml.ts';
import { windowsInstallPlan, windowsLayout, windowsQuote, windowsServiceState, windowsUninstallPlan, winswXml } from './windows-layout.ts';
import type { Step } from './windows-layout.ts';
import { applyWindowsPlan, windowsPath } from './windows-service.ts';

/**
 * The Windows service (issue 44), checked on Linux: the plan is written under a temporary root
 * (C:\… becomes <root>/C/…) and read back; its commands are checked as a list, as they only run
 * on Windows.
 */
const dir = mkdtempSync(join(tmpdir(), 'pagewatch-windows-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const layout = windowsLayout({ ProgramFiles: 'C:\\Program Files', ProgramData: 'C:\\ProgramData' });
const WINSW = new Uint8Array([0x4d, 0x5a, 1, 2, 3]); // stands for winsw.exe
const assets: Record<string, Uint8Array> = { 'winsw.exe': WINSW, 'winsw.exe.config': new TextEncoder().encode('<configuration/>') };

/** How a Windows program splits its command line (the C runtime's rules, which Node follows). */
function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    let backslashes = 0;
    while (line[i] === '\\') {
      backslashes++;
      i++;
    }
    const ch = line[i];
    if (ch === '"') {
      current += '\\'.repeat(backslashes >> 1);
      if (backslashes % 2 === 1) current += '"';
      else quoted = !quoted;
      started = true;
      continue;
    }
    current += '\\'.repeat(backslashes);
    if (backslashes > 0) started = true;
    if (ch === undefined) break;
    if ((ch === ' ' || ch === '\t') && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

const child = (element: XmlElement, name: string): XmlElement[] => element.children.filter((c) => c.name === name);
const textOf = (element: XmlElement, name: string): string | undefined => child(element, name)[0]?.text;

function install(name: string, start = true): { root: string; plan: Step[] } {
  const root = join(dir, name);
  const self = join(dir, `${name}-agent.exe`);
  writeFileSync(self, 'the agent itself');
  const plan = windowsInstallPlan(layout, { server: 'https://pagewatch.example.com', token: 'secret-token-44' }, start);
  applyWindowsPlan(plan, { root, asset: (asset) => assets[asset]!, self, log: () => undefined });
  return { root, plan };
}

describe('the agent as a Windows service', () => {
  it('quotes arguments as Windows reads them back, spaces, quotes and trailing backslashes too', () => {
    const args = ['run', '--config', 'C:\\Program Data\\Pagewatch Agent\\agent.json', 'C:\\dir with space\\', 'say "hi"', '', 'a\\\\b'];
    expect(splitCommandLine(args.map(windowsQuote).join(' '))).toEqual(args);
    expect(windowsQuote('C:\\ProgramData\\Pagewatch Agent\\agent.json')).toBe('"C:\\ProgramData\\Pagewatch Agent\\agent.json"');
  });

  it('install writes the agent, WinSW and its service file that restarts the agent on failure', () => {
    const { root } = install('install');
    const local = (path: string): string => windowsPath(root, path);
    expect(local(layout.serviceXml)).toBe(join(root, 'C', 'Program Files', 'Pagewatch Agent', 'pagewatch-agent-service.xml'));
    expect(readFileSync(local(layout.executable), 'utf8')).toBe('the agent itself');
    expect(new Uint8Array(readFileSync(local(layout.serviceExe)))).toEqual(WINSW);
    expect(readFileSync(local(layout.serviceExeConfig), 'utf8')).toBe('<configuration/>');
    const service = parseXml(readFileSync(local(layout.serviceXml), 'utf8'));
    expect(service.name).toBe('service');
    expect(textOf(service, 'id')).toBe('pagewatch-agent');
    expect(textOf(service, 'executable')).toBe('C:\\Program Files\\Pagewatch Agent\\pagewatch-agent.exe');
    expect(splitCommandLine(textOf(service, 'arguments')!)).toEqual(['run', '--config', 'C:\\ProgramData\\Pagewatch Agent\\agent.json']);
    expect(textOf(service, 'startmode')).toBe('Automatic');
    expect(child(service, 'onfailure').map((f) => f.attributes)).toEqual(Array(3).fill({ action: 'restart', delay: '10 sec' }));
    expect(textOf(service, 'resetfailure')).toBe('1 hour');
    expect(child(service, 'log')[0]?.attributes).toEqual({ mode: 'roll' });
    expect(textOf(service, 'logpath')).toBe('C:\\ProgramData\\Pagewatch Agent\\logs');
  });

  it('install writes the configuration and the token beside it, which the configuration does not hold', () => {
    const { root } = install('config');
    const local = (path: string): string => windowsPath(root, path);
    expect(readFileSync(local(layout.token), 'utf8').trim()).toBe('secret-token-44');
    const config = readFileSync(local(layout.config), 'utf8');
    expect(JSON.parse(config)).toEqual({ server: 'https://pagewatch.example.com', tokenFile: 'C:\\ProgramData\\Pagewatch Agent\\token', spoolDir: 'C:\\ProgramData\\Pagewatch Agent\\spool' });
    expect(config).not.toContain('secret-token-44');
    expect(existsSync(local(layout.spoolDir))).toBe(true);
  });

  it('install closes the data folder to all but SYSTEM and Administrators before the token is in it, then registers and starts the service', () => {
    const { plan } = install('commands');
    const runs = plan.flatMap((step) => (step.kind === 'run' ? [[step.file, ...step.args, ...(step.mayFail ? ['(may fail)'] : [])]] : []));
    const exe = 'C:\\Program Files\\Pagewatch Agent\\pagewatch-agent-service.exe';
    expect(runs).toEqual([
      [exe, 'stop', '(may fail)'],
      [exe, 'uninstall', '(may fail)'],
      ['icacls', 'C:\\ProgramData\\Pagewatch Agent', '/inheritance:r', '/grant:r', '*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F'],
      [exe, 'install'],
      [exe, 'start'],
    ]);
    const at = (found: (step: Step) => boolean): number => plan.findIndex(found);
    const icacls = at((s) => s.kind === 'run' && s.file === 'icacls');
    expect(icacls).toBeGreaterThan(at((s) => s.kind === 'dir' && s.path === layout.dataDir));
    expect(icacls).toBeLessThan(at((s) => s.kind === 'file' && s.path === layout.token));
    expect(at((s) => s.kind === 'run' && s.args[0] === 'install')).toBeGreaterThan(at((s) => s.kind === 'file' && s.path === layout.serviceXml));
    expect(install('no-start', false).plan.at(-1)).toEqual({ kind: 'run', file: exe, args: ['install'] });
  });

  it('escapes what XML must not hold raw in a path', () => {
    const odd = windowsLayout({ ProgramFiles: 'D:\\R&D <apps>', ProgramData: 'D:\\Data' });
    const service = parseXml(winswXml(odd));
    expect(textOf(service, 'executable')).toBe('D:\\R&D <apps>\\Pagewatch Agent\\pagewatch-agent.exe');
  });

  it('uninstall stops and removes the service, then its folders', () => {
    const { root } = install('uninstall');
    const plan = windowsUninstallPlan(layout);
    expect(plan.filter((s) => s.kind === 'run').map((s) => s.kind === 'run' && s.args[0])).toEqual(['stop', 'uninstall']);
    applyWindowsPlan(plan, { root, asset: (asset) => assets[asset]!, self: join(dir, 'uninstall-agent.exe'), log: () => undefined });
    expect(existsSync(windowsPath(root, layout.installDir))).toBe(false);
    expect(existsSync(windowsPath(root, layout.dataDir))).toBe(false);
  });

  it('status reads WinSW\'s answer in the words of systemd', () => {
    expect(['Started\r\n', 'Stopped', 'NonExistent', ''].map(windowsServiceState)).toEqual(['active', 'inactive', 'not registered', 'unknown']);
  });
});
