import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../json-file.ts';

/**
 * Where an installed agent lives (Linux, systemd). `root` is `/` on a real install and a
 * temporary folder in tests: the unit names the paths as the system sees them, the files are
 * written under root.
 */
export const SERVICE_NAME = 'pagewatch-agent';
export const SERVICE_USER = 'pagewatch-agent';
export const LAYOUT = {
  executable: '/opt/pagewatch-agent/pagewatch-agent',
  configDir: '/etc/pagewatch-agent',
  config: '/etc/pagewatch-agent/agent.json',
  token: '/etc/pagewatch-agent/token',
  stateDir: '/var/lib/pagewatch-agent',
  unit: `/etc/systemd/system/${SERVICE_NAME}.service`,
} as const;

export const under = (root: string, path: string): string => join(root, path);

/** The installed agent's configuration (`run --config`): the token is in its own file, readable by the service's user only. */
export const serviceConfigSchema = z.object({
  server: z.url().max(2000),
  tokenFile: z.string().min(1).max(4096),
  spoolDir: z.string().min(1).max(4096),
});
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;

export function readServiceConfig(path: string): ServiceConfig {
  return serviceConfigSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** What `status` shows as the last successful run; written by `run` after each run that read something. */
export type LastRun = { finishedAt: string; version: string };
export const lastRunPath = (spoolDir: string): string => join(spoolDir, 'last-run.json');

export function writeLastRun(spoolDir: string, run: LastRun): void {
  writeJsonFile(lastRunPath(spoolDir), run);
}

export function readLastRun(spoolDir: string): LastRun | null {
  return readJsonFile<LastRun>(lastRunPath(spoolDir));
}

/** The systemd unit: restarted on failure (and after a self-update on Windows' model, by exit code), hardened. */
export function systemdUnit(execStart: string): string {
  return `[Unit]
Description=Pagewatch agent (polls printers, sends readings to the Pagewatch server)
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=${SERVICE_USER}
ExecStart=${execStart}
WorkingDirectory=${LAYOUT.stateDir}
Restart=always
RestartSec=5
NoNewPrivileges=yes
ProtectSystem=full
ProtectHome=yes
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
`;
}
