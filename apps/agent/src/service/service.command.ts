import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isSea } from 'node:sea';
import type { CliCommand } from '../cli-command.ts';
import { AGENT_VERSION } from '../version.ts';
import { installWindowsService, uninstallWindowsService, windowsStatusSource } from './windows-service.ts';
import { WINDOWS_SERVICE_ID } from './windows-layout.ts';
import { LAYOUT, readLastRun, readServiceConfig, SERVICE_NAME, SERVICE_USER, serviceConfigSchema, systemdUnit, under } from './service-layout.ts';

const INSTALL_HELP = `usage: install --server <url> --token <token> [--root DIR] [--no-start]
Installs the agent as a service, restarted on failure.
Linux (systemd): the executable in ${LAYOUT.executable}, its configuration in ${LAYOUT.config},
the token in ${LAYOUT.token} (readable by the service's user ${SERVICE_USER} only), its spool in
${LAYOUT.stateDir}.
Windows (the service "${WINDOWS_SERVICE_ID}", run by WinSW): the executable in
%ProgramFiles%\\Pagewatch Agent, its configuration, token, spool and logs in
%ProgramData%\\Pagewatch Agent (readable by SYSTEM and Administrators only).
--root: write under another root folder and start nothing (packaging, tests).
`;

/** Whether a command is on the PATH (systemctl, useradd). */
const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** The service's own user (created on a real install), so the token is readable by it alone. */
function serviceUser(): { uid: number; gid: number } | null {
  const id = (flag: string): number => Number(execFileSync('id', [flag, SERVICE_USER], { encoding: 'utf8' }).trim());
  if (spawnSync('id', [SERVICE_USER], { stdio: 'ignore' }).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', LAYOUT.stateDir, '--shell', '/usr/sbin/nologin', SERVICE_USER]);
  }
  return { uid: id('-u'), gid: id('-g') };
}

/** The command line the unit starts: the single executable, or Node and this source tree (an install from source). */
function execStart(): { command: string; copyExecutable: boolean } {
  const run = `run --config ${LAYOUT.config}`;
  if (isSea()) return { command: `${LAYOUT.executable} ${run}`, copyExecutable: true };
  return { command: `${process.execPath} ${fileURLToPath(new URL('../cli.ts', import.meta.url))} ${run}`, copyExecutable: false };
}

type Options = Record<string, { type: 'string' | 'boolean'; default?: boolean }>;
function parse(args: string[], options: Options): { values: Record<string, string | boolean | undefined> } {
  const { values } = parseArgs({ args, strict: true, options: { ...options, root: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
  return { values: values as Record<string, string | boolean | undefined> };
}

/** The --root of uninstall and status (`/` when absent); null, with the message printed, for bad arguments. */
function rootOf(command: string, args: string[]): string | null {
  try {
    const { values } = parse(args, {});
    return typeof values.root === 'string' ? values.root : '/';
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    return null;
  }
}

export const installCommand: CliCommand = {
  name: 'install',
  summary: 'install the agent as a service (systemd, Windows), restarted on failure',
  async run(args) {
    let values;
    try {
      ({ values } = parse(args, { server: { type: 'string' }, token: { type: 'string' }, 'no-start': { type: 'boolean', default: false } }));
    } catch (error) {
      process.stderr.write(`install: ${(error as Error).message}\n${INSTALL_HELP}`);
      return 2;
    }
    if (values.help) {
      process.stdout.write(INSTALL_HELP);
      return 0;
    }
    if (process.platform !== 'linux' && process.platform !== 'win32') {
      process.stderr.write(`install: a service is installed on Linux (systemd) and Windows, not on ${process.platform}: run the agent with \`run\`\n`);
      return 2;
    }
    const server = typeof values.server === 'string' ? values.server : undefined;
    const token = typeof values.token === 'string' ? values.token : undefined;
    if (!server || !token) {
      process.stderr.write(`install: --server and --token are required\n${INSTALL_HELP}`);
      return 2;
    }
    const config = serviceConfigSchema.safeParse({ server, tokenFile: LAYOUT.token, spoolDir: LAYOUT.stateDir });
    if (!config.success || !/^https?:\/\//.test(server)) {
      process.stderr.write(`install: --server must be an http(s) URL\n`);
      return 2;
    }
    const root = typeof values.root === 'string' ? values.root : '/';
    if (process.platform === 'win32') return installWindowsService({ server, token, root, start: !values['no-start'] });
    const real = root === '/';
    const owner = real ? serviceUser() : null;
    const { command, copyExecutable } = execStart();
    for (const dir of [LAYOUT.configDir, LAYOUT.stateDir, '/etc/systemd/system', ...(copyExecutable ? ['/opt/pagewatch-agent'] : [])]) {
      mkdirSync(under(root, dir), { recursive: true });
    }
    // The token: written with no access for anyone but its owner, then given to the service's user.
    rmSync(under(root, LAYOUT.token), { force: true });
    writeFileSync(under(root, LAYOUT.token), `${token}\n`, { mode: 0o600 });
    chmodSync(under(root, LAYOUT.token), 0o600);
    writeFileSync(under(root, LAYOUT.config), `${JSON.stringify(config.data, null, 2)}\n`, { mode: 0o644 });
    chmodSync(under(root, LAYOUT.stateDir), 0o700);
    if (copyExecutable) {
      // The service's user owns its folder: a self-update replaces the executable there.
      copyFileSync(process.execPath, under(root, `${LAYOUT.executable}.partial`));
      chmodSync(under(root, `${LAYOUT.executable}.partial`), 0o755);
      execFileSync('mv', ['-f', under(root, `${LAYOUT.executable}.partial`), under(root, LAYOUT.executable)]);
    }
    if (owner) {
      for (const path of [LAYOUT.token, LAYOUT.stateDir, ...(copyExecutable ? ['/opt/pagewatch-agent', LAYOUT.executable] : [])]) {
        chownSync(under(root, path), owner.uid, owner.gid);
      }
    }
    writeFileSync(under(root, LAYOUT.unit), systemdUnit(command));
    process.stdout.write(`installed ${SERVICE_NAME} ${AGENT_VERSION}: ${under(root, LAYOUT.unit)}\n`);
    if (real && !values['no-start'] && has('systemctl')) {
      execFileSync('systemctl', ['daemon-reload'], { stdio: 'inherit' });
      execFileSync('systemctl', ['enable', '--now', SERVICE_NAME], { stdio: 'inherit' });
      process.stdout.write(`started: systemctl status ${SERVICE_NAME}\n`);
    }
    return 0;
  },
};

export const uninstallCommand: CliCommand = {
  name: 'uninstall',
  summary: 'stop and remove the agent service, its configuration and spool',
  async run(args) {
    const root = rootOf('uninstall', args);
    if (root === null) return 2;
    if (process.platform === 'win32') {
      uninstallWindowsService(root);
      process.stdout.write(`${WINDOWS_SERVICE_ID} removed\n`);
      return 0;
    }
    if (root === '/' && existsSync(LAYOUT.unit) && has('systemctl')) {
      spawnSync('systemctl', ['disable', '--now', SERVICE_NAME], { stdio: 'inherit' });
    }
    for (const path of [LAYOUT.unit, LAYOUT.configDir, LAYOUT.stateDir, '/opt/pagewatch-agent']) rmSync(under(root, path), { recursive: true, force: true });
    if (root === '/' && has('systemctl')) spawnSync('systemctl', ['daemon-reload'], { stdio: 'ignore' });
    process.stdout.write(`${SERVICE_NAME} removed\n`);
    return 0;
  },
};

/** Where `status` finds an installed agent: systemd's unit and files, or the Windows service's. */
function installedAgent(root: string): { installed: boolean; config: string; executable: string; state: () => string; local: (path: string) => string } {
  if (process.platform === 'win32') {
    const windows = windowsStatusSource(root);
    return { ...windows, config: windows.local(windows.layout.config), executable: windows.local(windows.layout.executable) };
  }
  return {
    installed: existsSync(under(root, LAYOUT.unit)),
    config: under(root, LAYOUT.config),
    executable: under(root, LAYOUT.executable),
    state: () => (has('systemctl') ? spawnSync('systemctl', ['is-active', SERVICE_NAME], { encoding: 'utf8' }).stdout.trim() || 'unknown' : 'unknown (no systemctl)'),
    local: (path) => under(root, path),
  };
}

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'whether the agent service runs, its version, server and last successful run',
  async run(args) {
    const root = rootOf('status', args);
    if (root === null) return 2;
    const agent = installedAgent(root);
    if (!agent.installed) {
      process.stdout.write(`${SERVICE_NAME}: not installed\n`);
      return 3;
    }
    let config;
    try {
      config = readServiceConfig(agent.config);
    } catch (error) {
      // The configuration's folder is closed to other users on Windows; a broken file says so here.
      process.stderr.write(`status: cannot read ${agent.config}: ${(error as Error).message.split('\n')[0]} (run it as root or Administrator)\n`);
      return 2;
    }
    const state = root === '/' ? agent.state() : 'not checked (--root)';
    const exe = agent.executable;
    const version = existsSync(exe) ? spawnSync(exe, ['version'], { encoding: 'utf8', timeout: 15_000, windowsHide: true }).stdout.trim() || 'unknown' : AGENT_VERSION;
    const last = readLastRun(agent.local(config.spoolDir));
    process.stdout.write([
      `service:  ${state}`,
      `version:  ${version}`,
      `server:   ${config.server}`,
      `last run: ${last ? `${last.finishedAt} (version ${last.version})` : 'none yet'}`,
    ].join('\n') + '\n');
    return state === 'active' || root !== '/' ? 0 : 3;
  },
};
