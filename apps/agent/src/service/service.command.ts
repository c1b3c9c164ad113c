import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';
import { commandArgs, UsageError } from '../cli-args.ts';
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

const ROOT_OPTION = { root: { type: 'string' } } as const;
const INSTALL_OPTIONS = { ...ROOT_OPTION, server: { type: 'string' }, token: { type: 'string' }, 'no-start': { type: 'boolean', default: false } } as const;

/** The --root of uninstall and status (`/` when absent), or the exit code once help or a usage error is printed. */
function rootOf(name: string, args: string[]): string | number {
  const line = commandArgs({ name, help: `usage: ${name} [--root DIR]\n--root: the root folder the agent was installed under (packaging, tests).\n` }, args, ROOT_OPTION, (l) => l.values);
  return typeof line === 'number' ? line : (line.root ?? '/');
}

type InstallOptions = { server: string; token: string; root: string; start: boolean };

function installLinuxService({ server, token, root, start }: InstallOptions): number {
  const config = serviceConfigSchema.parse({ server, tokenFile: LAYOUT.token, spoolDir: LAYOUT.stateDir });
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
  writeFileSync(under(root, LAYOUT.config), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o644 });
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
  if (real && start && has('systemctl')) {
    execFileSync('systemctl', ['daemon-reload'], { stdio: 'inherit' });
    execFileSync('systemctl', ['enable', '--now', SERVICE_NAME], { stdio: 'inherit' });
    process.stdout.write(`started: systemctl status ${SERVICE_NAME}\n`);
  }
  return 0;
}

export const installCommand: CliCommand = {
  name: 'install',
  summary: 'install the agent as a service (systemd, Windows), restarted on failure',
  async run(args) {
    const options = commandArgs({ name: 'install', help: INSTALL_HELP }, args, INSTALL_OPTIONS, ({ values }): InstallOptions => {
      if (!values.server || !values.token) throw new UsageError('--server and --token are required');
      if (!/^https?:\/\//.test(values.server) || !serviceConfigSchema.shape.server.safeParse(values.server).success) throw new UsageError('--server must be an http(s) URL');
      return { server: values.server, token: values.token, root: values.root ?? '/', start: !values['no-start'] };
    });
    if (typeof options === 'number') return options;
    if (process.platform === 'win32') return installWindowsService(options);
    if (process.platform === 'linux') return installLinuxService(options);
    process.stderr.write(`install: a service is installed on Linux (systemd) and Windows, not on ${process.platform}: run the agent with \`run\`\n`);
    return 2;
  },
};

export const uninstallCommand: CliCommand = {
  name: 'uninstall',
  summary: 'stop and remove the agent service, its configuration and spool',
  async run(args) {
    const root = rootOf('uninstall', args);
    if (typeof root === 'number') return root;
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
    if (typeof root === 'number') return root;
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
