import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { AGENT_VERSION } from '../version.ts';
import { windowsInstallPlan, windowsLayout, windowsServiceState, windowsUninstallPlan, WINDOWS_SERVICE_ID } from './windows-layout.ts';
import type { FileSource, Step, WindowsLayout } from './windows-layout.ts';

/**
 * Carries out the Windows service's plans (windows-layout.ts). `root` is `/` on a real install;
 * any other folder receives the files under a drive-letter folder (C:\x → <root>/C/x) and no
 * command runs, as with the Linux install's --root.
 */
export const windowsPath = (root: string, path: string): string =>
  root === '/' ? path : join(root, ...path.replace(/^([A-Za-z]):/, '$1').split('\\'));

export type PlanContext = {
  root: string;
  /** A SEA asset of the build (WinSW); tests give their own bytes. */
  asset: (name: string) => Uint8Array;
  /** The running executable, copied into the install folder. */
  self: string;
  log: (line: string) => void;
};

function writeFile(path: string, source: FileSource, context: PlanContext): void {
  if ('text' in source) writeFileSync(path, source.text);
  else if ('asset' in source) writeFileSync(path, context.asset(source.asset));
  else if (resolve(context.self) !== resolve(path)) copyFileSync(context.self, path); // a re-install from the installed copy keeps it
}

/** Runs the steps in order; a failing command that is not expected to fail stops the install with its name. */
export function applyWindowsPlan(steps: Step[], context: PlanContext): void {
  const local = (path: string): string => windowsPath(context.root, path);
  for (const step of steps) {
    if (step.kind === 'dir') mkdirSync(local(step.path), { recursive: true });
    else if (step.kind === 'file') writeFile(local(step.path), step.source, context);
    else if (step.kind === 'remove') {
      try {
        rmSync(local(step.path), { recursive: true, force: true });
      } catch (error) {
        // The running executable cannot be removed on Windows (uninstall run from the installed copy).
        context.log(`${step.path} could not be removed (${(error as NodeJS.ErrnoException).code ?? 'error'}): remove it by hand`);
      }
    } else if (context.root === '/') {
      const ran = spawnSync(step.file, step.args, { stdio: step.mayFail ? 'ignore' : 'inherit', windowsHide: true });
      if ((ran.error || ran.status !== 0) && !step.mayFail) throw new Error(`${step.file} ${step.args.join(' ')} failed (${ran.error?.message ?? `exit code ${ran.status}`})`);
    }
  }
}

const readAsset = (name: string): Uint8Array => new Uint8Array(getAsset(name));

export function installWindowsService(options: { server: string; token: string; root: string; start: boolean }): number {
  if (!isSea()) {
    process.stderr.write('install: on Windows, install with the single-file agent (pagewatch-agent-win-x64.exe from `npm run build:agent`)\n');
    return 2;
  }
  const layout = windowsLayout(process.env);
  try {
    applyWindowsPlan(windowsInstallPlan(layout, options, options.start && options.root === '/'), {
      root: options.root, asset: readAsset, self: process.execPath, log: (line) => process.stderr.write(`install: ${line}\n`),
    });
  } catch (error) {
    const denied = ['EPERM', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '');
    process.stderr.write(`install: ${(error as Error).message.split('\n')[0]}${denied ? ' (run it in a console opened as Administrator)' : ''}\n`);
    return 1;
  }
  process.stdout.write(`installed ${WINDOWS_SERVICE_ID} ${AGENT_VERSION}: ${windowsPath(options.root, layout.serviceXml)}\n`);
  return 0;
}

export function uninstallWindowsService(root: string): void {
  applyWindowsPlan(windowsUninstallPlan(windowsLayout(process.env)), {
    root, asset: readAsset, self: process.execPath, log: (line) => process.stderr.write(`uninstall: ${line}\n`),
  });
}

/** What `status` reads on Windows: the service's state from WinSW, the files under root. */
export function windowsStatusSource(root: string): { installed: boolean; layout: WindowsLayout; state: () => string; local: (path: string) => string } {
  const layout = windowsLayout(process.env);
  const local = (path: string): string => windowsPath(root, path);
  return {
    installed: existsSync(local(layout.serviceXml)),
    layout,
    local,
    state: () => windowsServiceState(spawnSync(layout.serviceExe, ['status'], { encoding: 'utf8', windowsHide: true }).stdout ?? ''),
  };
}
