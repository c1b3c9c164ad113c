import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { LICENSE_FORMAT, licenseTermsSchema, signedLicenseSchema, type LicenseTerms, type SignedLicense } from '@pagewatch/contracts/licenses';

/**
 * Ed25519 signatures of license documents (node:crypto, no dependency). The issuer keeps the
 * private key; a server holds only the public one, so it can check a license but never make one.
 */

export type IssuerKeys = { publicKeyPem: string; privateKeyPem: string };

export function generateIssuerKeys(): IssuerKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** An Ed25519 public key from PEM, or null when the text is not one. */
export function issuerPublicKey(pem: string): KeyObject | null {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/** The .lic document for `terms`, signed with the issuer's private key. */
export function signLicense(terms: LicenseTerms, privateKeyPem: string): SignedLicense {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the issuer key is not an Ed25519 private key');
  const license = JSON.stringify(licenseTermsSchema.parse(terms));
  return { format: LICENSE_FORMAT, license, signature: sign(null, Buffer.from(license, 'utf8'), key).toString('base64') };
}

export type Verified = { ok: true; terms: LicenseTerms } | { ok: false; reason: 'malformed' | 'signature' };

/**
 * Whether `doc` (a parsed .lic) is well formed and signed by the holder of `publicKey`. The
 * signature is checked before the terms are read, so nothing unsigned is ever trusted.
 */
export function verifyLicense(doc: unknown, publicKey: KeyObject): Verified {
  const envelope = signedLicenseSchema.safeParse(doc);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  const signature = Buffer.from(envelope.data.signature, 'base64');
  if (signature.length !== 64) return { ok: false, reason: 'signature' };
  if (!verify(null, Buffer.from(envelope.data.license, 'utf8'), publicKey, signature)) return { ok: false, reason: 'signature' };
  let inner: unknown;
  try {
    inner = JSON.parse(envelope.data.license);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const terms = licenseTermsSchema.safeParse(inner);
  return terms.success ? { ok: true, terms: terms.data } : { ok: false, reason: 'malformed' };
}
