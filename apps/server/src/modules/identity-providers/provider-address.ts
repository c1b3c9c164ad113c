import type { LdapSettings, OidcSettings } from '@pagewatch/contracts/identity-providers';
import type { FieldError } from '../../lib/app-error.ts';
import { OutboundRefused, resolveHost } from '../../lib/outbound.ts';
import { translate } from '../../i18n/messages.ts';
import './identity-providers.messages.ts';

/**
 * A provider that could not be asked (down, refused, TLS failed, not what it should be): not the
 * user's fault. `key` and `params` say why in words of the reader's language (the test button).
 */
export class ProviderUnreachable extends Error {
  readonly key: string;
  readonly params: Record<string, unknown>;
  constructor(message: string, key = 'idp.test.failed', params: Record<string, unknown> = { reason: message }) {
    super(message);
    this.key = key;
    this.params = params;
  }
}

/** Where a provider's secret goes: the directory's address, or the OpenID issuer. */
export const destination = (kind: string, settings: LdapSettings | OidcSettings) => (kind === 'LDAP' ? (settings as LdapSettings).url : (settings as OidcSettings).issuer);

/** The outbound refusals (lib/outbound, the notification channels' own), said of a provider. */
const REFUSED_KEY: Record<string, string> = { 'channel.internalAddress': 'idp.internalAddress', 'channel.unresolved': 'idp.unresolved', 'channel.badUrl': 'general.badValue' };

export const refusalKey = (err: OutboundRefused) => REFUSED_KEY[err.key] ?? 'general.badValue';
/** The refusal in words for the event log (its reason parameter is kept in English, as the directory's own errors). */
export const refusalText = (err: OutboundRefused) => translate('en', refusalKey(err), err.params);

/**
 * The field error when the provider's address is refused (loopback, link-local… unless allowed,
 * the classification and the setting of the notification channels: SSRF), null when it may be
 * reached. Checked again at every connection (ldap-directory, oidc-client): DNS may answer
 * otherwise later.
 */
export async function addressRefusal(kind: string, settings: LdapSettings | OidcSettings, allowInternal: boolean): Promise<FieldError | null> {
  try {
    await resolveHost(new URL(destination(kind, settings)).hostname, allowInternal);
    return null;
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    return { field: kind === 'LDAP' ? 'ldap.url' : 'oidc.issuer', key: refusalKey(err), params: err.params };
  }
}
