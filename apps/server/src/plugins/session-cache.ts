import type { Caller } from '../lib/caller.ts';

type Entry = { caller: Caller; until: number };

/**
 * Resolved sessions kept for a few seconds: every API call needs its caller (user, grants,
 * location scope), and loading one takes several queries. Logout and changes of a user evict
 * their sessions at once, on every instance (the hub's session notices, over NOTIFY).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** Bumped by every eviction: a load that started before one must not be cached after it. */
  private generation = 0;

  constructor(ttlMs = 5_000, maxEntries = 10_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  async resolve(tokenHash: string, load: (hash: string) => Promise<Caller | null | 'expired'>): Promise<Caller | null | 'expired'> {
    const hit = this.entries.get(tokenHash);
    const now = Date.now();
    if (hit && hit.until > now) return hit.caller;
    if (hit) this.entries.delete(tokenHash);
    const generation = this.generation;
    const result = await load(tokenHash);
    if (result && result !== 'expired' && this.ttlMs > 0 && generation === this.generation) {
      // Map keeps insertion order: the first key is the oldest entry.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      // Never past the session's own end: an expired session is not served from here.
      this.entries.set(tokenHash, { caller: result, until: Math.min(now + this.ttlMs, result.sessionExpiresAt.getTime()) });
    }
    return result;
  }

  forgetToken(tokenHash: string) {
    this.generation++;
    this.entries.delete(tokenHash);
  }

  forgetUser(userId: number) {
    this.generation++;
    for (const [hash, e] of this.entries) if (e.caller.userId === userId) this.entries.delete(hash);
  }

  /** Locations moved or roles changed: scopes and grants of everyone may differ. */
  clear() {
    this.generation++;
    this.entries.clear();
  }
}
