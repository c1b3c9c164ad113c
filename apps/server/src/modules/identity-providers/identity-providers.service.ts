import { idpInputSchema, type Idp, type IdpChoice, type IdpInput, type IdpTestResult, type IdpKind, type LdapSettings, type OidcSettings, type ParsedIdp } from '@pagewatch/contracts/identity-providers';
import type { Db } from '../../db/client.ts';
import { AppError, notFound, type FieldError } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireSecretsOnMove } from '../../lib/secrets.ts';
import { addressRefusal, destination, ProviderUnreachable } from './provider-address.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { descendantIds } from '../locations/index.ts';
import { allRoles } from '../roles/index.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { ldapProbe } from './ldap-directory.ts';
import { discover, keysOf } from './oidc-client.ts';
import * as repo from './identity-providers.repository.ts';
import './identity-providers.messages.ts';


export const callbackPath = (id: number) => `/api/auth/oidc/${id}/callback`;

/**
 * Identity providers (issue 55), kept by whoever holds MNU_IDENTITY_PROVIDERS at the provider's
 * location. A provider, and each of its group mappings, stays inside the caller's locations, and
 * a mapping stays at the provider's location or below it: a customer's directory can never give
 * a location of another customer (security.md, invariant 1), nor a role its setter does not hold.
 */
export class IdentityProvidersService extends DomainService {
  private readonly secrets: SecretBox;
  private readonly publicUrl: string | null;
  private readonly cloud: boolean;

  constructor(db: Db, log: EventLog, opts: { secrets: SecretBox; publicUrl: string | null; cloud?: boolean }) {
    super(db, log);
    this.secrets = opts.secrets;
    this.publicUrl = opts.publicUrl;
    this.cloud = opts.cloud ?? false;
  }

  private view(r: repo.ProviderRow & { mappings: repo.MappingRow[] }): Idp {
    return {
      id: r.id,
      kind: r.kind as IdpKind,
      name: r.name,
      locationId: r.locationId,
      enabled: r.enabled,
      allowInternal: r.allowInternal,
      secretSet: !!r.secret,
      ldap: r.kind === 'LDAP' ? (r.settings as LdapSettings) : null,
      oidc: r.kind === 'OIDC' ? (r.settings as OidcSettings) : null,
      mappings: r.mappings,
      redirectUri: r.kind === 'OIDC' && this.publicUrl ? `${this.publicUrl.replace(/\/+$/, '')}${callbackPath(r.id)}` : null,
    };
  }

  async list(caller: Caller): Promise<Idp[]> {
    return (await repo.listProviders(this.db, caller.allLocations ? null : [...caller.scope])).map((r) => this.view(r));
  }

  /**
   * The enabled providers for the login page (anyone): their names and kinds only. In cloud mode
   * only those of the location `at` names (its own sign-in address), none without it: the names
   * of every customer's providers would tell anyone who the customers are.
   */
  async choices(at: string | undefined): Promise<IdpChoice[]> {
    if (this.cloud && !at) return [];
    return (await repo.enabledProviders(this.db, at || null)).map((r) => ({ id: r.id, kind: r.kind as IdpKind, name: r.name }));
  }

  /** A provider in the caller's locations; one outside is as missing. */
  private async own(caller: Caller, id: number) {
    const row = await repo.providerById(this.db, id);
    if (!row || !caller.scope.has(row.locationId)) throw notFound();
    return row;
  }

  async get(caller: Caller, id: number): Promise<Idp> {
    return this.view(await this.own(caller, id));
  }

  /** The input of a save or a test, at a location of the caller's and of the provider's kind. */
  private parsed(caller: Caller, input: IdpInput, existing: repo.ProviderRow | null) {
    const p: ParsedIdp = idpInputSchema.parse(input);
    if (!caller.scope.has(p.locationId)) throw new AppError('OUT_OF_SCOPE');
    if (existing && existing.kind !== p.kind) throw new AppError('VALIDATION', { fields: [{ field: 'kind', key: 'idp.kindLocked' }] });
    const settings = p.kind === 'LDAP' ? p.ldap : p.oidc;
    // The stored secret goes only where it went: the same address, at the same location.
    const moved = !!existing && (destination(existing.kind, existing.settings) !== destination(p.kind, settings) || existing.locationId !== p.locationId);
    return { p, settings, moved };
  }

  /** The input checked against the caller's rights; the values to store. */
  private async checked(caller: Caller, input: IdpInput, existing: repo.ProviderRow | null) {
    const { p, settings, moved } = this.parsed(caller, input, existing);
    const fields: FieldError[] = [];
    const below = new Set(await descendantIds(this.db, [p.locationId]));
    const roles = await allRoles(this.db);
    const handed = new Set(roles.filter((r) => r.grants.every((g) => caller.grants.has(g))).map((r) => r.id));
    p.mappings.forEach((m, i) => {
      if (!below.has(m.locationId)) fields.push({ field: `mappings.${i}.locationId`, key: 'idp.mappingOutsideProvider' });
      else if (!caller.scope.has(m.locationId)) fields.push({ field: `mappings.${i}.locationId`, key: 'idp.mappingNotHeld' });
      if (!handed.has(m.roleId)) fields.push({ field: `mappings.${i}.roleId`, key: roles.some((r) => r.id === m.roleId) ? 'idp.roleNotHeld' : 'general.badValue' });
    });
    if (!p.secret && !existing?.secret) fields.push({ field: 'secret', key: 'general.mandatory' });
    const refused = await addressRefusal(p.kind, settings, p.allowInternal);
    if (refused) fields.push(refused);
    if (fields.length) throw new AppError('VALIDATION', { fields });
    requireSecretsOnMove(moved, [{ field: 'secret', key: 'idp.secretAgain', kept: !p.secret }]);
    const values = { kind: p.kind, name: p.name, locationId: p.locationId, enabled: p.enabled, allowInternal: p.allowInternal, settings, secret: p.secret ? this.secrets.seal(p.secret) : (existing?.secret ?? null), updatedAt: new Date() };
    return { values, mappings: p.mappings };
  }

  async create(caller: Caller, input: IdpInput): Promise<Idp> {
    const { values, mappings } = await this.checked(caller, input, null);
    const id = await this.db.transaction(async (tx) => {
      const id = await repo.insertProvider(tx, values);
      await repo.setMappings(tx, id, mappings);
      await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'idp.created', params: { actor: caller.login, name: values.name }, userId: caller.userId, locationId: values.locationId }, tx);
      return id;
    });
    return this.get(caller, id);
  }

  async update(caller: Caller, id: number, input: IdpInput): Promise<Idp> {
    const existing = await this.own(caller, id);
    const { values, mappings } = await this.checked(caller, input, existing);
    await this.db.transaction(async (tx) => {
      await repo.updateProvider(tx, id, values);
      await repo.setMappings(tx, id, mappings);
      await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'idp.updated', params: { actor: caller.login, name: values.name }, userId: caller.userId, locationId: values.locationId }, tx);
    });
    return this.get(caller, id);
  }

  /**
   * The form's "test connection": the values typed, checked as for saving (the caller's locations,
   * the address), with the secret typed or, for a saved provider whose address and location did
   * not change, the stored one (a stored secret never goes to a new address). Nothing is saved.
   */
  async test(caller: Caller, id: number | null, input: IdpInput, lang: Lang): Promise<IdpTestResult> {
    const existing = id === null ? null : await this.own(caller, id);
    const { p, settings, moved } = this.parsed(caller, input, existing);
    const secret = p.secret || (!moved && existing?.secret ? this.secrets.open(existing.secret) : null);
    const fields: FieldError[] = [];
    if (!secret) fields.push({ field: 'secret', key: existing?.secret ? 'idp.secretAgain' : 'general.mandatory' });
    const refused = await addressRefusal(p.kind, settings, p.allowInternal);
    if (refused) fields.push(refused);
    if (fields.length) throw new AppError('VALIDATION', { fields });
    const none = { users: null, groups: null, more: false, keys: null };
    try {
      if (p.kind === 'LDAP') {
        const found = await ldapProbe({ ...p.ldap, allowInternal: p.allowInternal }, secret!);
        const n = (x: number) => `${x}${found.more ? '+' : ''}`;
        return { ok: true, message: translate(lang, 'idp.test.ldapOk', { users: n(found.users), groups: n(found.groups) }), ...none, ...found };
      }
      const target = { ...p.oidc, allowInternal: p.allowInternal };
      const doc = await discover(target);
      const keys = (await keysOf(doc, target)).keys.length;
      return { ok: true, message: translate(lang, 'idp.test.oidcOk', { issuer: doc.issuer, keys }), ...none, keys };
    } catch (err) {
      if (!(err instanceof ProviderUnreachable)) throw err;
      return { ok: false, message: translate(lang, err.key, err.params), ...none };
    }
  }

  /** Deletes the provider; its users stay, unable to sign in until given a password or another provider. */
  async remove(caller: Caller, id: number): Promise<void> {
    const existing = await this.own(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.deleteProvider(tx, id);
      await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'idp.deleted', params: { actor: caller.login, name: existing.name }, userId: caller.userId, locationId: existing.locationId }, tx);
    });
  }
}
