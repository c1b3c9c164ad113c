import { z } from 'zod';
import { id, text } from './fields.ts';

/**
 * Identity providers (issue 55): a directory (LDAP or Active Directory) or an OpenID Connect
 * provider whose users sign in to the console. Each belongs to a location (in cloud mode, a
 * customer's): its group mappings give roles at that location or below it only. The secret (the
 * bind password, the client secret) is write-only: absent or empty keeps the stored one.
 */
export const IDP_KINDS = ['LDAP', 'OIDC'] as const;
export type IdpKind = (typeof IDP_KINDS)[number];

const line = (max: number) => text(max, { line: true }).trim();
const LDAP_URL = /^ldaps?:\/\/[^\s/?#]+\/?$/i;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:\/\S*)?$/i;

/** One directory group (its name, or for OIDC a value of the groups claim) and what it gives. */
export const idpMappingSchema = z.object({
  group: line(256).min(1, 'general.mandatory'),
  roleId: id,
  locationId: id,
});
export type IdpMapping = z.output<typeof idpMappingSchema>;

export const ldapSettingsSchema = z.object({
  url: line(500).regex(LDAP_URL, 'idp.badLdapUrl'),
  /** StartTLS on an ldap:// address (ldaps:// is TLS from the start). */
  startTls: z.boolean().default(false),
  /** The certificate authority (PEM) the directory's certificate is checked with; empty: the system's. */
  caCert: text(20_000).trim().nullish(),
  bindDn: line(500).min(1, 'general.mandatory'),
  userBase: line(500).min(1, 'general.mandatory'),
  /** `{login}` stands for the login typed (escaped). */
  userFilter: line(500).regex(/\{login\}/, 'idp.filterNeedsLogin').default('(uid={login})'),
  groupBase: line(500).min(1, 'general.mandatory'),
  /** `{dn}` stands for the user's DN, `{login}` for the login (both escaped). */
  groupFilter: line(500).default('(member={dn})'),
  groupAttribute: line(100).min(1).default('cn'),
  loginAttribute: line(100).min(1).default('uid'),
  emailAttribute: line(100).min(1).default('mail'),
  lastNameAttribute: line(100).min(1).default('sn'),
  firstNameAttribute: line(100).min(1).default('givenName'),
});
export type LdapSettings = z.output<typeof ldapSettingsSchema>;

export const oidcSettingsSchema = z.object({
  /** The issuer; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: line(500).regex(HTTP_URL, 'idp.badIssuer'),
  clientId: line(256).min(1, 'general.mandatory'),
  scopes: line(500).regex(/(^|\s)openid(\s|$)/, 'idp.scopesNeedOpenid').default('openid email profile'),
  groupsClaim: line(100).min(1).default('groups'),
  loginClaim: line(100).min(1).default('preferred_username'),
});
export type OidcSettings = z.output<typeof oidcSettingsSchema>;

const common = {
  name: line(100).min(1, 'general.mandatory'),
  /** The location it belongs to: its mappings stay at it or below it. */
  locationId: id,
  enabled: z.boolean().default(true),
  /**
   * Whether the directory or the issuer may be at a loopback or link-local address (this server
   * itself, a cloud's metadata at 169.254.169.254): refused unless set, as a notification
   * channel's (SSRF).
   */
  allowInternal: z.boolean().default(false),
  secret: text(1000, { line: true }).nullish(),
  mappings: z.array(idpMappingSchema).max(200),
};

/** `POST`/`PUT /api/identity-providers`. */
export const idpInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('LDAP'), ...common, ldap: ldapSettingsSchema }),
  z.object({ kind: z.literal('OIDC'), ...common, oidc: oidcSettingsSchema }),
]);
export type IdpInput = z.input<typeof idpInputSchema>;
export type ParsedIdp = z.output<typeof idpInputSchema>;

/** A provider as the API shows it: the secret only says whether it is set. */
export const idpSchema = z.object({
  id: z.number().int(),
  kind: z.enum(IDP_KINDS),
  name: z.string(),
  locationId: z.number().int(),
  enabled: z.boolean(),
  allowInternal: z.boolean(),
  secretSet: z.boolean(),
  ldap: ldapSettingsSchema.nullable(),
  oidc: oidcSettingsSchema.nullable(),
  mappings: z.array(idpMappingSchema),
  /** The address to register with the OpenID provider as the redirect URI (null: no public URL is configured). */
  redirectUri: z.string().nullable(),
});
export type Idp = z.infer<typeof idpSchema>;

/**
 * Whose providers the login page shows: a location's code (`/login-form?at=ACME`). In cloud mode
 * the page shows only that location's, and none without it: a list of every customer's providers
 * would be the list of the customers.
 */
export const signInAtSchema = z.object({ at: text(50, { line: true }).trim().optional() });

/** What the login page shows: the enabled providers, by name. */
export const idpChoiceSchema = z.object({ id: z.number().int(), kind: z.enum(IDP_KINDS), name: z.string() });
export type IdpChoice = z.infer<typeof idpChoiceSchema>;

/** `POST /api/auth/sso-ticket`: the one-time ticket an OpenID sign-in came back with, for a session. */
export const ssoTicketSchema = z.object({ ticket: z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/, 'general.badValue') });

/**
 * `POST /api/identity-providers/test` (a new provider's form) and `/:id/test` (a saved one's, whose
 * stored secret is used when none is typed): a directory's service bind and searches, or an OpenID
 * provider's discovery document and key set. `message` says what was found, or why not, in the
 * caller's language.
 */
export const idpTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** A directory's: the users its user search finds, the groups its group search finds (`more`: at least). */
  users: z.number().int().nullable(),
  groups: z.number().int().nullable(),
  more: z.boolean(),
  /** An OpenID provider's: the signing keys of its key set. */
  keys: z.number().int().nullable(),
});
export type IdpTestResult = z.infer<typeof idpTestResultSchema>;

