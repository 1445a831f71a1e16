/**
 * Who sees which app: the `show` key of an app's `config/app` names the role (or roles) a user needs to see
 * the app (the real product's app configuration). Admins and developers see every app (they build them).
 * The index holds each app's `show` roles in memory, so the synchronous access rules can ask it: built from
 * the store at start, kept current from the property events (every instance sees every event, PostgreSQL
 * included). A `config/app` that is not JSON, or has no `show`, guards nothing.
 */
import { ROLE_DEVELOPER, hasPermission, isAdmin, type Principal } from '../../shared/auth';
import { appFolderOf, type PropertyStore } from '../../shared/property';
import type { EventBus, PipeworkEvent } from '../events/event-bus';
import { keysOfEvent } from '../events/event-listen-dispatcher';

/** The roles of a `show` value: a role name, a comma-separated list, or a list of names. */
export function showRolesOf(value: string | null | undefined): string[] | undefined {
  let config: unknown;
  try {
    config = JSON.parse(value ?? 'null');
  } catch {
    return undefined;
  }
  const show = (config as { show?: unknown } | null)?.show;
  const names = Array.isArray(show) ? show : typeof show === 'string' ? show.split(',') : [];
  const roles = names
    .filter((n): n is string => typeof n === 'string')
    .map((n) => n.trim())
    .filter(Boolean);
  return roles.length > 0 ? roles : undefined;
}

/** The app folder whose `config/app` a key is, or undefined. */
export function appOfConfigKey(key: string): string | undefined {
  const app = appFolderOf(key);
  return app && key === `${app.folder}/config/app` ? app.folder : undefined;
}

export class AppShowIndex {
  private readonly roles = new Map<string, string[]>();
  private unsubscribe?: () => void;
  /** Events handled one after the other, so a later change is never overwritten by an earlier read. */
  private inOrder: Promise<void> = Promise.resolve();

  constructor(private readonly store: Pick<PropertyStore, 'get' | 'list'>) {}

  /** Reads every app's `config/app` and follows their changes; resolves once the index is complete. */
  async start(events: EventBus): Promise<void> {
    const pending: PipeworkEvent[] = [];
    let live = false;
    this.unsubscribe = events.subscribe((event) => (live ? this.follow(event) : void pending.push(event)));
    const configs = await this.store.list({ pattern: '**/app/*/config/app' });
    for (const property of configs) this.set(property.key, property.value);
    live = true;
    for (const event of pending) this.follow(event);
    await this.inOrder;
  }

  private follow(event: PipeworkEvent): void {
    this.inOrder = this.inOrder.then(() => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** The roles guarding an app folder (`global/app/x`), undefined when it shows to everyone. */
  showRoles(appFolder: string): readonly string[] | undefined {
    return this.roles.get(appFolder);
  }

  /** Whether the principal may see the app: no `show` roles, an admin or developer, or a holder of one. */
  mayShow(principal: Principal, appFolder: string): boolean {
    const roles = this.roles.get(appFolder);
    if (!roles || isAdmin(principal) || principal.roles.has(ROLE_DEVELOPER)) return true;
    return roles.some((role) => hasPermission(principal, role));
  }

  private set(key: string, value: string | null | undefined): void {
    const app = appOfConfigKey(key);
    if (!app) return;
    const roles = showRolesOf(value);
    if (roles) this.roles.set(app, roles);
    else this.roles.delete(app);
  }

  /** Re-reads the `config/app` an event concerns (created, changed, moved, deleted). */
  private async onEvent(event: PipeworkEvent): Promise<void> {
    if (!event.eventKey.startsWith('property.')) return;
    for (const key of keysOfEvent(event)) {
      if (!appOfConfigKey(key)) continue;
      const property = await this.store.get(key).catch(() => undefined);
      this.set(key, property?.value ?? null);
    }
  }
}
