import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentConfig, AgentStatus } from '@pagewatch/contracts/agent-api';
import { agentConfigSchema } from '@pagewatch/contracts/agent-api';
import { parseModelsPack } from '@pagewatch/contracts/models-pack';
import { loadDefaultModelsPack } from '@pagewatch/snmp/models-pack';
import { ProfileRegistry } from '../profiles/profile-registry.ts';
import { type ConfigSealer, readConfigFile, writeConfigFile } from './config-file.ts';
import type { AgentLog } from './collect.ts';
import { TransportError, type AgentInfo, type AgentTransport } from './transport.ts';

export const isUpdateRequired = (error: unknown): error is TransportError => error instanceof TransportError && error.kind === 'updateRequired';
/** The server's own words (in its language) say which versions it takes; the line says what to do. */
export const updateRequiredLine = (message: string) => `UPDATE REQUIRED: the server no longer takes this agent's version; install the agent of the server's release. Readings wait in the spool; asking again every few minutes. (${message})`;

/**
 * The agent's config and models pack: what the server said last, kept in the spool's directory
 * (the config sealed) so that a start without the server runs as before.
 */
export type ConfigKeeper = {
  readonly config: AgentConfig | null;
  readonly registry: ProfileRegistry;
  readonly registered: boolean;
  /** The server answered "update required" (426) to the last config read. */
  readonly needsUpdate: boolean;
  /** Registers (or re-reads the config); falls back to the last config kept on disk. */
  refresh(): Promise<boolean>;
};

export type ConfigKeeperOptions = {
  transport: AgentTransport;
  spoolDir: string;
  sealer: ConfigSealer;
  info: AgentInfo;
  log: AgentLog;
  setStatus: (status: AgentStatus, message?: string) => void;
  onConfig?: (config: AgentConfig) => void;
};

export function createConfigKeeper({ transport, spoolDir, sealer, info, log, setStatus, onConfig }: ConfigKeeperOptions): ConfigKeeper {
  const configPath = join(spoolDir, 'config.json');
  const packPath = join(spoolDir, 'models-pack.json');
  let config: AgentConfig | null = null;
  let registered = false;
  let registry = new ProfileRegistry(loadDefaultModelsPack());
  let seenConfigVersion: number | undefined;
  let needsUpdate = false;

  // A pack left by an earlier run is used until the server says otherwise.
  if (existsSync(packPath)) {
    const cachedPack = parseModelsPack(readFileSync(packPath, 'utf8'));
    if (cachedPack.ok) registry = new ProfileRegistry(cachedPack.pack);
  }
  const kept = readConfigFile(configPath, sealer);
  const cached = kept ? agentConfigSchema.safeParse(kept.config) : null;
  if (cached?.success) {
    config = cached.data;
    // An older release kept it in clear: sealed from now on.
    if (kept!.clear) writeConfigFile(configPath, config, sealer);
  }

  async function applyConfig(next: AgentConfig): Promise<void> {
    const versionChanged = next.configVersion !== undefined && next.configVersion !== seenConfigVersion;
    const packChanged = next.modelsVersion !== null && next.modelsVersion !== registry.version;
    config = next;
    seenConfigVersion = next.configVersion;
    writeConfigFile(configPath, next, sealer);
    if (packChanged || next.updateRequested || versionChanged) {
      try {
        const parsed = parseModelsPack(await transport.modelsPack());
        if (parsed.ok) {
          registry = new ProfileRegistry(parsed.pack);
          writeFileSync(packPath, JSON.stringify(parsed.pack));
          log('info', `models pack version ${parsed.pack.version}`);
        } else {
          log('warn', `the server's models pack is invalid, keeping version ${registry.version}: ${parsed.problems[0]}`);
        }
      } catch (error) {
        log('warn', `cannot fetch the models pack: ${(error as Error).message}`);
      }
    }
  }

  async function refresh(): Promise<boolean> {
    try {
      const next = registered ? await transport.config() : await transport.register(info);
      await applyConfig(next);
      registered = true;
      needsUpdate = false;
      onConfig?.(next);
      return true;
    } catch (error) {
      const message = (error as Error).message;
      if (isUpdateRequired(error)) {
        needsUpdate = true;
        setStatus('ERROR', message);
        log('error', updateRequiredLine(message));
        return false;
      }
      if (error instanceof TransportError && error.kind === 'unauthorized') setStatus('ERROR', message);
      log('warn', config ? `${message}; using the last config` : message);
      return false;
    }
  }

  return {
    get config() {
      return config;
    },
    get registry() {
      return registry;
    },
    get registered() {
      return registered;
    },
    get needsUpdate() {
      return needsUpdate;
    },
    refresh,
  };
}
