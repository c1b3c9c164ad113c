import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (issue 43): every stored secret is AES-256-GCM ciphertext under a key kept
 * outside the database. The stored form says what it is, so a value is recognised anywhere:
 * `enc:v1:<keyId>:<iv>:<tag>:<ciphertext>`, each part base64url. The key id is the start of the
 * key's SHA-256: it tells which key a value needs without telling anything of the key.
 */
const SEALED = /^enc:v1:([A-Za-z0-9_-]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]*)$/;

/** The 32 bytes of a key given as base64 (or base64url) or hex; null for anything else. */
export function parseSecretKey(text: string): Buffer | null {
  const v = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    const key = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

export const newSecretKey = () => randomBytes(32);

export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url');
}

/** The key id a sealed value needs; null for a plain value. */
export function sealedKeyId(stored: string): string | null {
  return SEALED.exec(stored)?.[1] ?? null;
}

export class SecretBox {
  readonly keyId: string;
  // Private, so that the key is in no enumeration of the object (a logged context, a JSON).
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a secret key is 32 bytes');
    this.#key = Buffer.from(key);
    this.keyId = secretKeyId(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['enc', 'v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
  }

  /** A null or empty value sealed stays as it is (nothing is stored). */
  sealOrNull(plain: string | null | undefined): string | null {
    return plain ? this.seal(plain) : null;
  }

  /**
   * The secret of a stored value. A plain value is given back as it is: one stored before this
   * version's first start had sealed it (that start seals every plain value it finds). A value
   * of another key, or altered, throws: it never becomes a wrong secret silently.
   */
  open(stored: string): string {
    const m = SEALED.exec(stored);
    if (!m) return stored;
    if (m[1] !== this.keyId) throw new Error(`a stored secret needs the secret key ${m[1]}, not ${this.keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(m[2], 'base64url'));
    decipher.setAuthTag(Buffer.from(m[3], 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(m[4], 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`a stored secret of the key ${m[1]} does not decrypt: it was altered`);
    }
  }

  openOrNull(stored: string | null | undefined): string | null {
    return stored ? this.open(stored) : null;
  }

  toJSON() {
    return { keyId: this.keyId };
  }
}
