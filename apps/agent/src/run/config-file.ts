import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Seals and opens the kept config's text: the server's own secret box for the built-in agent. */
export type ConfigSealer = { seal(plain: string): string; open(sealed: string): string };

const FORMAT = 'pagewatch-agent-config';

/**
 * The standalone agent's sealer: AES-256-GCM with a key of its own, `config.key` in the spool
 * (made at the first write, mode 600). It keeps the communities, SNMPv3 keys and queue
 * passwords out of the clear text of a file that a copy of the folder or a grep would read.
 */
export function keyFileSealer(spoolDir: string): ConfigSealer {
  const keyPath = join(spoolDir, 'config.key');
  let cached: Buffer | null = null;
  const key = (): Buffer => (cached ??= readOrMakeKey());
  const readOrMakeKey = (): Buffer => {
    if (!existsSync(keyPath)) {
      const fd = openSync(keyPath, 'wx', 0o600);
      try {
        writeSync(fd, randomBytes(32).toString('base64'));
      } finally {
        closeSync(fd);
      }
    }
    chmodSync(keyPath, 0o600);
    return Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64');
  };
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(), iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join(':');
    },
    open(sealed) {
      const [iv, tag, data] = sealed.split(':').map((p) => Buffer.from(p, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', key(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The last config the server gave, kept for a start while the server is away (issue 52): sealed,
 * the file 600. Written whole or not at all.
 */
export function writeConfigFile(path: string, config: unknown, sealer: ConfigSealer): void {
  writeFileSync(`${path}.partial`, JSON.stringify({ format: FORMAT, sealed: sealer.seal(JSON.stringify(config)) }), { mode: 0o600 });
  chmodSync(`${path}.partial`, 0o600);
  renameSync(`${path}.partial`, path);
}

/**
 * The kept config, or null when there is none or it cannot be opened (another key: the server
 * gives it again). A file in clear, as an older release wrote it, is read once and `clear` says
 * so: the caller writes it again, sealed.
 */
export function readConfigFile(path: string, sealer: ConfigSealer): { config: unknown; clear: boolean } | null {
  if (!existsSync(path)) return null;
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; sealed?: unknown };
    if (file.format !== FORMAT) return { config: file, clear: true };
    return { config: JSON.parse(sealer.open(String(file.sealed))), clear: false };
  } catch {
    return null;
  }
}
