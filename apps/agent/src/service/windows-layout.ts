import { win32 } from 'node:path';

/**
 * The Windows service (issue 44), as a plan of folders, files and commands: pure, so that Linux
 * tests check it (windows-service.ts carries it out). A Node single executable cannot talk to the
 * Service Control Manager, so the service is WinSW (MIT, from the npm package node-windows,
 * embedded in the Windows build by scripts/build-agent.ts): its copy `pagewatch-agent-service.exe`
 * runs the agent from the XML file of the same name and restarts it when it fails.
 */
export const WINDOWS_SERVICE_ID = 'pagewatch-agent';
/** The SEA assets of the Windows build: WinSW and its .NET runtime file. */
export const WINSW_ASSETS = { exe: 'winsw.exe', config: 'winsw.exe.config' } as const;
/** Well-known SIDs, not names: "Administrators" is "Администраторы" on a Russian Windows. */
export const SID_SYSTEM = '*S-1-5-18';
export const SID_ADMINISTRATORS = '*S-1-5-32-544';

export type WindowsLayout = {
  installDir: string;
  executable: string;
  serviceExe: string;
  serviceExeConfig: string;
  serviceXml: string;
  /** Configuration, token, spool and logs: readable by SYSTEM and Administrators only. */
  dataDir: string;
  config: string;
  token: string;
  spoolDir: string;
  logDir: string;
};

/** Where the agent lives, from the machine's %ProgramFiles% and %ProgramData%. */
export function windowsLayout(env: { ProgramFiles?: string; ProgramData?: string }): WindowsLayout {
  const installDir = win32.join(env.ProgramFiles || 'C:\\Program Files', 'Pagewatch Agent');
  const dataDir = win32.join(env.ProgramData || 'C:\\ProgramData', 'Pagewatch Agent');
  const service = (name: string): string => win32.join(installDir, name);
  return {
    installDir,
    executable: service('pagewatch-agent.exe'),
    serviceExe: service('pagewatch-agent-service.exe'),
    serviceExeConfig: service('pagewatch-agent-service.exe.config'),
    serviceXml: service('pagewatch-agent-service.xml'),
    dataDir,
    config: win32.join(dataDir, 'agent.json'),
    token: win32.join(dataDir, 'token'),
    spoolDir: win32.join(dataDir, 'spool'),
    logDir: win32.join(dataDir, 'logs'),
  };
}

/** One argument of a Windows command line, quoted as the C runtime (and Node) reads it back. */
export function windowsQuote(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    // Backslashes are literal unless a quote follows: then each is doubled and the quote escaped.
    out += '\\'.repeat(ch === '"' ? backslashes * 2 + 1 : backslashes) + ch;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

const xmlText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** WinSW's configuration: started with Windows, restarted 10 s after each failure (the count resets after an hour of running), logs rolled. */
export function winswXml(layout: WindowsLayout): string {
  const args = ['run', '--config', layout.config].map(windowsQuote).join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<service>
  <id>${WINDOWS_SERVICE_ID}</id>
  <name>Pagewatch agent</name>
  <description>Polls printers and sends their readings to the Pagewatch server.</description>
  <executable>${xmlText(layout.executable)}</executable>
  <arguments>${xmlText(args)}</arguments>
  <startmode>Automatic</startmode>
  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="10 sec"/>
  <resetfailure>1 hour</resetfailure>
  <logpath>${xmlText(layout.logDir)}</logpath>
  <log mode="roll"/>
</service>
`;
}

/** A file's content: text, a SEA asset of the build, or a copy of the running executable. */
export type FileSource = { text: string } | { asset: string } | { copyOfSelf: true };
/** `mayFail`: a step whose failure is expected (stopping a service that is not there). */
export type Step =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; source: FileSource }
  | { kind: 'run'; file: string; args: string[]; mayFail?: boolean }
  | { kind: 'remove'; path: string };

/** Stops and removes a service a previous install left (nothing happens when there is none). */
const removeService = (layout: WindowsLayout): Step[] => [
  { kind: 'run', file: layout.serviceExe, args: ['stop'], mayFail: true },
  { kind: 'run', file: layout.serviceExe, args: ['uninstall'], mayFail: true },
];

/**
 * `install`: the data folder is closed to everyone but SYSTEM and Administrators before the token
 * is written into it (its files inherit that), then the agent and WinSW are put in place and the
 * service is registered and started.
 */
export function windowsInstallPlan(layout: WindowsLayout, config: { server: string; token: string }, start: boolean): Step[] {
  const serviceConfig = { server: config.server, tokenFile: layout.token, spoolDir: layout.spoolDir };
  return [
    ...removeService(layout),
    { kind: 'dir', path: layout.installDir },
    { kind: 'dir', path: layout.dataDir },
    { kind: 'run', file: 'icacls', args: [layout.dataDir, '/inheritance:r', '/grant:r', `${SID_SYSTEM}:(OI)(CI)F`, `${SID_ADMINISTRATORS}:(OI)(CI)F`] },
    { kind: 'dir', path: layout.spoolDir },
    { kind: 'dir', path: layout.logDir },
    { kind: 'file', path: layout.token, source: { text: `${config.token}\n` } },
    { kind: 'file', path: layout.config, source: { text: `${JSON.stringify(serviceConfig, null, 2)}\n` } },
    { kind: 'file', path: layout.executable, source: { copyOfSelf: true } },
    { kind: 'file', path: layout.serviceExe, source: { asset: WINSW_ASSETS.exe } },
    { kind: 'file', path: layout.serviceExeConfig, source: { asset: WINSW_ASSETS.config } },
    { kind: 'file', path: layout.serviceXml, source: { text: winswXml(layout) } },
    { kind: 'run', file: layout.serviceExe, args: ['install'] },
    ...(start ? [{ kind: 'run' as const, file: layout.serviceExe, args: ['start'] }] : []),
  ];
}

/** `uninstall`: the service, then its folders. */
export function windowsUninstallPlan(layout: WindowsLayout): Step[] {
  return [...removeService(layout), { kind: 'remove', path: layout.installDir }, { kind: 'remove', path: layout.dataDir }];
}

/** What `pagewatch-agent-service.exe status` prints, as `status` reports it beside systemd's words. */
export function windowsServiceState(winswStatus: string): string {
  const state = winswStatus.trim();
  if (state === 'Started') return 'active';
  if (state === 'Stopped') return 'inactive';
  if (state === 'NonExistent') return 'not registered';
  return state || 'unknown';
}
