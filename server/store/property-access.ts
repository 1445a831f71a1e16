/**
 * Who may read and write which property key (DESIGN 7): `global` for every authenticated user, `user/<uuid>`
 * for that user, `group/<uuid>` and `tenant/<uuid>` for their members, admins everything; the reserved
 * built-in apps for nobody to change. Group and tenant membership come from the Principal, which the IAM
 * module fills in; per-app rules can be added through `AppAccessRules`.
 *
 * Stored code decides who it runs as (docs/security.md, "Who code runs as"), so the executable sections of
 * an app (`pipeline/`, `script/`, `test/`, `workflow/`) are writable only by developers and admins, or by
 * holders of the app's own role (`AppAccessRules.mayStoreCode`); in one's own user folder by its owner. A run
 * bound by another author's code (`Principal.limitedBy`) needs every author's rights too, and stores no code.
 */
import { ROLE_DEVELOPER, hasPermission, isAdmin, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  appFolderOf,
  executableAppOf,
  isReservedAppKey,
  type AppFolder,
  type KeyScope,
} from '../../shared/property';

export type AccessMode = 'read' | 'write';

/**
 * Extra rules an app may carry (spec 2.4, configured in IAM). Return false to deny, true or undefined to
 * leave the decision to the folder rules. Never consulted for admins, never able to grant more.
 */
export interface AppAccessRules {
  allows(principal: Principal, app: AppFolder, mode: AccessMode): boolean | undefined;
  /** True when the principal holds the app's own role, which lets it store code in the app's executable sections. */
  mayStoreCode?(principal: Principal, app: AppFolder): boolean;
}

export interface PropertyAccessOptions {
  appRules?: AppAccessRules;
}

function ownerFolderAllows(principal: Principal, key: string): boolean {
  const slash = key.indexOf('/');
  const root = slash < 0 ? key : key.slice(0, slash);
  if (root === 'global') return true;
  const end = key.indexOf('/', slash + 1);
  const owner = end < 0 ? key.slice(slash + 1) : key.slice(slash + 1, end);
  if (slash < 0 || owner === '') return false;
  switch (root) {
    case 'user':
      return owner === principal.uuid;
    case 'group':
      return principal.groups.has(owner);
    case 'tenant':
      return principal.tenants.has(owner);
    default:
      return false;
  }
}

export class PropertyAccess {
  private readonly appRules?: AppAccessRules;

  constructor(options: PropertyAccessOptions = {}) {
    this.appRules = options.appRules;
  }

  private appAllows(principal: Principal, key: string, mode: AccessMode): boolean {
    if (!this.appRules) return true;
    const app = appFolderOf(key);
    return !app || this.appRules.allows(principal, app, mode) !== false;
  }

  /** Whether the principal may read the property at `key` (a valid, normalised key). */
  canRead(principal: Principal | null, key: string): boolean {
    if (!principal) return false;
    if (principal.limitedBy?.some((author) => !this.canRead(author, key))) return false;
    if (isAdmin(principal)) return true;
    return ownerFolderAllows(principal, key) && this.appAllows(principal, key, 'read');
  }

  /** Whether the principal may create, change or delete the property at `key`. Reserved apps: nobody. */
  canWrite(principal: Principal | null, key: string): boolean {
    if (!principal || isReservedAppKey(key)) return false;
    const app = executableAppOf(key);
    if (app && !this.mayStoreCode(principal, key, app)) return false;
    if (principal.limitedBy?.some((author) => !this.canWrite(author, key))) return false;
    if (isAdmin(principal)) return true;
    return ownerFolderAllows(principal, key) && this.appAllows(principal, key, 'write');
  }

  /**
   * Whether the principal may store code at `key` (inside an executable section of `app`): developers and
   * admins, holders of the app's own role, the owner of a user folder in it; never a run bound by another
   * author's code (what it stored would later run as someone it is not).
   */
  private mayStoreCode(principal: Principal, key: string, app: AppFolder): boolean {
    if (principal.limitedBy?.length) return false;
    if (hasPermission(principal, ROLE_DEVELOPER)) return true;
    if (app.folder.startsWith(`user/${principal.uuid}/`)) return true;
    return this.appRules?.mayStoreCode?.(principal, app) === true;
  }

  /**
   * `canRead` for many keys of one principal (a listing): app rule answers are remembered per app folder,
   * so a listing asks the IAM once per app, not once per key.
   */
  readFilter(principal: Principal | null): (key: string) => boolean {
    if (!principal) return () => false;
    if (principal.limitedBy?.length) {
      // A run bound by other authors' code reads what it and each author may read, each with its own memo.
      const own = this.readFilter({ ...principal, limitedBy: undefined });
      const authors = principal.limitedBy.map((author) => this.readFilter(author));
      return (key) => own(key) && authors.every((allows) => allows(key));
    }
    if (isAdmin(principal)) return () => true;
    const rules = this.appRules;
    if (!rules) return (key) => ownerFolderAllows(principal, key);
    const decided = new Map<string, boolean>();
    return (key) => {
      if (!ownerFolderAllows(principal, key)) return false;
      const app = appFolderOf(key);
      if (!app) return true;
      let allowed = decided.get(app.folder);
      if (allowed === undefined) {
        allowed = rules.allows(principal, app, 'read') !== false;
        decided.set(app.folder, allowed);
      }
      return allowed;
    };
  }

  /**
   * For tree browsing: whether a folder (`global/app/x`, `user/<uuid>/a`) may be shown. The folder rules
   * are the listing scope's business; this hides folders inside apps whose rules deny the principal reading.
   */
  folderFilter(principal: Principal | null): (folder: string) => boolean {
    const readable = this.readFilter(principal);
    return (folder) => {
      const app = appFolderOf(folder);
      return !app || readable(app.folder);
    };
  }

  /** FORBIDDEN unless the principal may read `key`. */
  assertRead(principal: Principal | null, key: string): void {
    if (!this.canRead(principal, key)) {
      throw new PipeworkError('FORBIDDEN', `You may not read '${key}'.`, { key });
    }
  }

  /** FORBIDDEN unless the principal may write `key` (reserved apps and executable sections named as such). */
  assertWrite(principal: Principal | null, key: string): void {
    if (this.canWrite(principal, key)) return;
    const reason = isReservedAppKey(key)
      ? ' It belongs to a reserved built-in app.'
      : executableAppOf(key)
        ? ' Code (pipeline/, script/, test/, workflow/ of an app) is stored by developers, admins or the app’s own role.'
        : '';
    throw new PipeworkError('FORBIDDEN', `You may not change '${key}'.${reason}`, { key });
  }

  /**
   * The folders whose keys the principal may read: what a listing scans. App rules narrow single keys
   * further (`canRead` is applied to each result), so this is an upper bound.
   */
  readScope(principal: Principal | null): KeyScope {
    if (!principal) return [];
    if (isAdmin(principal)) return 'all';
    return [
      'global',
      `user/${principal.uuid}`,
      ...[...principal.groups].map((g) => `group/${g}`),
      ...[...principal.tenants].map((t) => `tenant/${t}`),
    ];
  }

  /** True when per-key checks can be skipped for results inside `readScope` (no app rules configured). */
  get scopeIsExact(): boolean {
    return this.appRules === undefined;
  }

  /** Whether listings for this principal need `readFilter` on each key (app rules, or a run bound by an author). */
  needsFilter(principal: Principal | null): boolean {
    return !this.scopeIsExact || Boolean(principal?.limitedBy?.length);
  }
}
