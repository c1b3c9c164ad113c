import { createHash, timingSafeEqual } from 'node:crypto';
import { assertDefaultAdmin, type Caller } from '../../lib/caller.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseModelsPack } from '@pagewatch/contracts/models-pack';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as repo from './models.repository.ts';
import './models.messages.ts';

/** The pack that ships with the agent; the server starts with it. */
export const BUNDLED_PACK_PATH = fileURLToPath(import.meta.resolve('@pagewatch/snmp/models-pack.json'));

/** Holds the active models pack (the highest version uploaded) and accepts new ones. */
/** Compares in constant time (of the hashes), so the answer's timing says nothing of the key. */
function sameSecret(given: string, secret: string): boolean {
  const hash = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(hash(given), hash(secret));
}

export class ModelsService {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly secret: string | null;
  private cached: { version: number; json: string } | null = null;

  constructor(db: Db, log: EventLog, secret: string | null) {
    this.db = db;
    this.log = log;
    this.secret = secret;
  }

  /** Stores the bundled pack when the database has none (or only older ones). */
  async seed(path = BUNDLED_PACK_PATH) {
    const parsed = parseModelsPack(readFileSync(path, 'utf8'));
    if (!parsed.ok) throw new Error(`bundled models pack is invalid: ${parsed.problems.join('; ')}`);
    await repo.insertPack(this.db, { version: parsed.pack.version, pack: parsed.pack, releasedAt: parsed.pack.releasedAt ?? null }, { unlessStored: true });
  }

  async activeVersion(): Promise<number | null> {
    return repo.newestVersion(this.db);
  }

  /** The active pack as JSON text, cached until a newer version appears. */
  async activePackJson(): Promise<string> {
    const version = await this.activeVersion();
    if (version === null) throw new AppError('NOT_FOUND');
    if (this.cached?.version !== version) {
      const row = (await repo.newestPack(this.db))!;
      this.cached = { version: row.version, json: JSON.stringify(row.pack) };
    }
    return this.cached.json;
  }

  /** POST /api/versions/upload: the secret key, then the pack's validity, then its version. */
  /** The pack reaches every agent (security.md, invariant 2): the default administrator's alone, key or not. */
  assertMayUpload(caller: Caller) {
    assertDefaultAdmin(caller);
  }

  async upload(caller: Caller, secretKey: string | undefined, text: string): Promise<{ version: number }> {
    this.assertMayUpload(caller);
    const userId = caller.userId;
    if (!this.secret) throw new AppError('FORBIDDEN', { key: 'models.uploadDisabled' });
    if (!secretKey || !sameSecret(secretKey, this.secret)) throw new AppError('FORBIDDEN', { key: 'models.badSecret' });
    const parsed = parseModelsPack(text);
    if (!parsed.ok) throw new AppError('UNPROCESSABLE', { key: 'models.invalid', params: { problems: parsed.problems.slice(0, 10).join('; ') } });
    const current = await this.activeVersion();
    if (current !== null && parsed.pack.version <= current) {
      throw new AppError('CONFLICT', { key: 'models.notNewer', params: { version: parsed.pack.version, current } });
    }
    await repo.insertPack(this.db, { version: parsed.pack.version, pack: parsed.pack, releasedAt: parsed.pack.releasedAt ?? null, uploadedBy: userId });
    await this.log.write({ group: 'SYSTEM', level: 'I', messageCode: 'models.uploaded', params: { version: parsed.pack.version, profiles: parsed.pack.profiles.length }, userId });
    return { version: parsed.pack.version };
  }
}
