/**
 * What a `property.query` may read, as SQL can apply it: the caller's folders (and every author's, for a run
 * bound by stored code), less the app folders whose rules deny reading, found by listing the apps of those
 * folders (a few index lookups), so the rules hold before paging, not after.
 */
import type { Principal } from '../../../shared/auth';
import type { KeyScope } from '../../../shared/property';
import type { PropertyService } from '../property-service';
import type { AccessLimits } from './query-from';

export async function queryAccess(
  properties: PropertyService,
  principal: Principal | null,
): Promise<AccessLimits> {
  const access = properties.access;
  let scope: KeyScope = access.readScope(principal);
  const authors = principal?.limitedBy ?? [];
  for (const author of authors) {
    const theirs = access.readScope(author);
    if (theirs === 'all') continue;
    scope = scope === 'all' ? theirs : scope.filter((f) => theirs.includes(f));
  }
  if (!access.needsFilter(principal)) return { scope, deniedFolders: [] };
  const readable = access.readFilter(principal);
  const roots = scope === 'all' ? await allRoots(properties) : scope;
  const denied: string[] = [];
  for (const root of roots) {
    for (const child of await properties.store.children(`${root}/app`)) {
      if (!child.endsWith('/')) continue;
      const folder = child.slice(0, -1);
      if (!readable(`${folder}/_`)) denied.push(folder);
    }
  }
  return { scope, deniedFolders: denied };
}

/** Every owner folder (`global`, `user/<uuid>`, ...) of the store, for a caller who may read all of them. */
async function allRoots(properties: PropertyService): Promise<string[]> {
  const out: string[] = [];
  for (const top of await properties.store.children(null)) {
    if (!top.endsWith('/')) continue;
    const root = top.slice(0, -1);
    if (root === 'global') out.push(root);
    else
      for (const owner of await properties.store.children(root))
        if (owner.endsWith('/')) out.push(owner.slice(0, -1));
  }
  return out;
}
