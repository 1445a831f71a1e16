/**
 * A tree level page by page (`property.keys.children.page`), with the same visibility as
 * `PropertyService.children`: the reader's folders, app rules on keys and on sub-folders.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { ChildrenPage } from '../../shared/property';
import { parseChildrenPattern, type PropertyService } from './property-service';
import { seesWholeLevel } from './property-tree-rules';

export const MAX_CHILDREN_PAGE = 1000;

function checkCursor(parent: string | null, after: string | undefined): void {
  if (after === undefined) return;
  const prefix = parent === null ? '' : `${parent}/`;
  const rest = after.slice(prefix.length);
  if (!after.startsWith(prefix) || rest === '' || rest === '/' || rest.slice(0, -1).includes('/')) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `'after' must be an entry of the listed folder, not '${after.slice(0, 80)}'.`,
      {
        parameter: 'after',
      },
    );
  }
}

export async function childrenPage(
  service: PropertyService,
  principal: Principal | null,
  pattern: unknown,
  after: string | undefined,
  limit: number,
): Promise<ChildrenPage> {
  const parent = parseChildrenPattern(pattern);
  checkCursor(parent, after);
  const scope = service.access.readScope(principal);
  if (scope === 'all' || seesWholeLevel(parent, scope)) {
    const readable = service.access.readFilter(principal);
    const folderVisible = service.access.folderFilter(principal);
    const accept = (child: string) =>
      child.endsWith('/') ? folderVisible(child.slice(0, -1)) : readable(child);
    return service.store.childrenPage({ parent, after, limit, accept });
  }
  // Above the reader's own folders a level holds only the paths down to them: list it whole and cut it.
  const all = await service.children(principal, pattern);
  const from = after === undefined ? 0 : all.findIndex((child) => child > after);
  const children = from < 0 ? [] : all.slice(from, from + limit);
  const more = from >= 0 && from + limit < all.length;
  return { children, next: more ? (children.at(-1) ?? null) : null };
}
