/**
 * Named secrets: stored sealed, listed without their values, used by commands by name. Who may write and
 * use a secret follows its scope: a user's own secret is theirs; a group's, every member's; a tenant's,
 * every member's; the installation's, whoever holds `CAN_USE_SECRET_<name>` (admins do). Writing to a
 * group, tenant or the installation takes an admin (a group's member may write its group's). A run of
 * code someone else stored may use a secret only when its authors could too (`limitedBy`).
 */
import { randomUUID } from 'node:crypto';
import { hasPermission, isAdmin, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { IamService } from '../iam';
import type { SecretMask } from '../runs/secret-mask';
import { confidentialParts, parseSecret, type SecretFormat, type SecretMaterial } from './secret-formats';
import { open, seal, type SecretKey, type SecretKeyRing } from './secret-keys';
import type { ScopeRef, SecretRow, SecretScope, SecretStore } from './secret-store';

export const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** What anyone who may see a secret sees: never its value. */
export interface SecretInfo {
  name: string;
  format: SecretFormat;
  scope: SecretScope;
  /** The group's or tenant's name for those scopes. */
  scopeName?: string;
  createdBy: string;
  created: number;
  updated: number;
  expires: number | null;
}

/** Where a secret lives, as a caller names it. */
export interface ScopeInput {
  scope?: SecretScope;
  /** The group's or the tenant's name (or uuid) for those scopes. */
  scopeName?: string;
}

export interface PutSecretInput extends ScopeInput {
  name: string;
  format: SecretFormat;
  secret: string;
  /** Minutes until the secret is deleted. */
  timeToLive?: number;
}

const forbidden = (message: string) => new PipeworkError('FORBIDDEN', message, { parameter: 'scope' });
const binding = (row: Pick<SecretRow, 'scope' | 'scope_id' | 'name'>) =>
  `secret:${row.scope}:${row.scope_id}:${row.name}`;

function checkName(name: string, parameter = 'name'): void {
  if (!SECRET_NAME.test(name))
    throw new PipeworkError(
      'PARAM_INVALID',
      'A secret name has 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
      { parameter },
    );
}

export class SecretService {
  private readonly resealers: ((next: SecretKey) => Promise<number>)[] = [];

  constructor(
    private readonly store: SecretStore,
    /** The installation's master keys; encrypted property values are sealed with them too. */
    readonly keys: SecretKeyRing,
    private readonly iam: IamService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The scopes a principal may use secrets of, most personal first. */
  private usableScopes(principal: Principal): ScopeRef[] {
    return [
      { scope: 'user', scopeId: principal.uuid },
      ...[...principal.groups].sort().map((id): ScopeRef => ({ scope: 'group', scopeId: id })),
      ...[...principal.tenants].sort().map((id): ScopeRef => ({ scope: 'tenant', scopeId: id })),
      { scope: 'installation', scopeId: '' },
    ];
  }

  private mayUse(principal: Principal, row: SecretRow): boolean {
    switch (row.scope) {
      case 'user':
        return principal.uuid === row.scope_id;
      case 'group':
        return principal.groups.has(row.scope_id);
      case 'tenant':
        return principal.tenants.has(row.scope_id);
      case 'installation':
        return hasPermission(principal, `CAN_USE_SECRET_${row.name}`);
    }
  }

  /** The scope a caller names, resolved and checked for writing. */
  private async writableScope(principal: Principal, input: ScopeInput): Promise<ScopeRef> {
    const scope = input.scope ?? 'user';
    if (principal.limitedBy?.length) throw forbidden('Code someone else stored may not write secrets.');
    switch (scope) {
      case 'user':
        return { scope, scopeId: principal.uuid };
      case 'installation':
        if (!isAdmin(principal)) throw forbidden('Only an admin may write secrets of the installation.');
        return { scope, scopeId: '' };
      case 'group': {
        const group = await this.namedIn('group', input.scopeName);
        if (!isAdmin(principal) && !principal.groups.has(group.uuid))
          throw forbidden(`You are not a member of group '${group.name}'.`);
        return { scope, scopeId: group.uuid };
      }
      case 'tenant': {
        const tenant = await this.namedIn('tenant', input.scopeName);
        if (!isAdmin(principal)) throw forbidden('Only an admin may write secrets of a tenant.');
        return { scope, scopeId: tenant.uuid };
      }
    }
  }

  private async namedIn(
    kind: 'group' | 'tenant',
    ref: string | undefined,
  ): Promise<{ uuid: string; name: string }> {
    if (!ref)
      throw new PipeworkError(
        'PARAM_INVALID',
        `A secret of a ${kind} needs the ${kind}'s name (scopeName).`,
        {
          parameter: 'scopeName',
        },
      );
    const directory = kind === 'group' ? this.iam.groups : this.iam.tenants;
    return (await directory.byUuid(ref)) ?? directory.require({ name: ref });
  }

  private async info(row: SecretRow): Promise<SecretInfo> {
    let scopeName: string | undefined;
    if (row.scope === 'group') scopeName = (await this.iam.groups.byUuid(row.scope_id))?.name;
    if (row.scope === 'tenant') scopeName = (await this.iam.tenants.byUuid(row.scope_id))?.name;
    return {
      name: row.name,
      format: row.format,
      scope: row.scope,
      ...(scopeName !== undefined ? { scopeName } : {}),
      createdBy: row.created_by,
      created: Number(row.created),
      updated: Number(row.updated),
      expires: row.expires === null ? null : Number(row.expires),
    };
  }

  /**
   * Creates or replaces a secret; the answer is its metadata. A value of the wrong format is refused. The
   * value is registered with the mask of the run that stores it (`runMaskOf`).
   */
  async put(mask: SecretMask, principal: Principal, input: PutSecretInput): Promise<SecretInfo> {
    checkName(input.name);
    const material = parseSecret(input.format, input.secret);
    mask.register(...confidentialParts(material), input.secret);
    if (input.timeToLive !== undefined && !(Number.isInteger(input.timeToLive) && input.timeToLive > 0))
      throw new PipeworkError('PARAM_INVALID', 'timeToLive is a whole number of minutes above 0.', {
        parameter: 'timeToLive',
      });
    const ref = await this.writableScope(principal, input);
    const now = this.now();
    const key = this.keys.current;
    const row: SecretRow = {
      uuid: randomUUID(),
      scope: ref.scope,
      scope_id: ref.scopeId,
      name: input.name,
      format: input.format,
      key_id: key.id,
      sealed: '',
      created_by: principal.username,
      created: now,
      updated: now,
      expires: input.timeToLive === undefined ? null : now + input.timeToLive * 60_000,
    };
    row.sealed = seal(key, input.secret, binding(row));
    await this.store.upsert(row);
    const [stored] = await this.store.find([ref], now, input.name);
    return this.info(stored ?? row);
  }

  /** The metadata of the secrets the principal may use (one name, or all). */
  async list(principal: Principal, name?: string): Promise<SecretInfo[]> {
    if (name !== undefined) checkName(name);
    const rows = await this.store.find(this.usableScopes(principal), this.now(), name);
    return Promise.all(rows.filter((r) => this.mayUse(principal, r)).map((r) => this.info(r)));
  }

  /** Deletes a secret of a scope the principal may write; false when there was none. */
  async delete(principal: Principal, name: string, input: ScopeInput): Promise<boolean> {
    checkName(name);
    return this.store.delete(await this.writableScope(principal, input), name);
  }

  /**
   * The value of a secret a command is about to use, registered with the run's mask first. The most
   * personal scope wins; a name the principal may not use is NOT_FOUND, exactly like a name that does not exist.
   */
  async use(
    mask: SecretMask,
    principal: Principal,
    name: string,
    parameter = 'secret',
  ): Promise<SecretMaterial> {
    checkName(name, parameter);
    const rows = await this.store.find(this.usableScopes(principal), this.now(), name);
    const row = rows
      .filter((r) => this.mayUse(principal, r))
      .sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope])[0];
    if (!row) throw new PipeworkError('NOT_FOUND', `No secret '${name}' you may use.`, { parameter });
    for (const author of principal.limitedBy ?? []) {
      if (!this.mayUse(author, row))
        throw new PipeworkError(
          'FORBIDDEN',
          `Secret '${name}' may not be used by code ${author.username} stored: only by its owners' own runs.`,
          { parameter },
        );
    }
    const key = this.keys.find(row.key_id);
    if (!key)
      throw new Error(`secret ${row.uuid} is sealed with key ${row.key_id}, which this instance lacks`);
    const value = open(key, row.sealed, binding(row));
    const material = parseSecret(row.format, value);
    mask.register(value, ...confidentialParts(material));
    return material;
  }

  /**
   * A username-password secret of the installation scope, for what the operator configured by name (a data
   * source's `PIPEWORK_DATASOURCE_<NAME>_SECRET`): no caller's rights apply, only admins write such secrets.
   */
  async installationCredentials(
    mask: SecretMask,
    name: string,
    configuredBy: string,
  ): Promise<{ username: string; password: string }> {
    const row = (await this.store.find([{ scope: 'installation', scopeId: '' }], this.now(), name))[0];
    if (!row)
      throw new PipeworkError(
        'NOT_FOUND',
        `${configuredBy} names secret '${name}', which the installation scope does not hold (secret.put with scope installation).`,
      );
    if (row.format !== 'username-password')
      throw new PipeworkError(
        'PARAM_INVALID',
        `${configuredBy} needs a username-password secret; '${name}' is ${row.format}.`,
      );
    const key = this.keys.find(row.key_id);
    if (!key)
      throw new Error(`secret ${row.uuid} is sealed with key ${row.key_id}, which this instance lacks`);
    const value = open(key, row.sealed, binding(row));
    const material = parseSecret(row.format, value);
    mask.register(value, ...confidentialParts(material));
    if (material.format !== 'username-password') throw new Error('parsed format differs from the stored one');
    return { username: material.username, password: material.password };
  }

  /** Deletes the secrets past their time to live (the cleanup job). */
  deleteExpired(): Promise<number> {
    return this.store.deleteExpired(this.now());
  }

  /** Seals every secret with a new master key (a new key file; or the current PIPEWORK_SECRETS_KEY). */
  async rotateKey(): Promise<{ resealed: number; keyId: string }> {
    const next = this.keys.beginRotation();
    let resealed = await this.store.reseal(next.id, (row) => {
      const key = this.keys.find(row.key_id);
      if (!key)
        throw new Error(`secret ${row.uuid} is sealed with key ${row.key_id}, which this instance lacks`);
      return seal(next, open(key, row.sealed, binding(row)), binding(row));
    });
    // What others sealed with the master key (encrypted property values) before the old key is gone.
    for (const reseal of this.resealers) resealed += await reseal(next);
    this.keys.finishRotation(next);
    return { resealed, keyId: next.id };
  }

  /** Others that seal with the master key: each reseals its values with the next key during a rotation. */
  onRotation(reseal: (next: SecretKey) => Promise<number>): void {
    this.resealers.push(reseal);
  }
}

const SCOPE_ORDER: Record<SecretScope, number> = { user: 0, group: 1, tenant: 2, installation: 3 };
