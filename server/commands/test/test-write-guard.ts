/**
 * A test changes data only inside its own app folder (`<root>/app/<app>/`) unless its header `testWrites`
 * names more key patterns (e.g. `testWrites: "user/**"`). The guard wraps the property service the test's
 * commands see; reads are not limited.
 */
import { PipeworkError } from '../../../shared/errors';
import { compileKeyPattern, literalPrefixOf, type KeyPattern } from '../../../shared/property';
import type { PropertyService } from '../../store/property-service';

/** The app folder of a test key: everything before `/test/` (`global/app/orders/test/a` → `global/app/orders`). */
export function appFolderOf(testKey: string): string | undefined {
  const at = testKey.indexOf('/test/');
  const folder = at > 0 ? testKey.slice(0, at) : undefined;
  return folder && /(^|\/)app\/[^/]+$/.test(folder) ? folder : undefined;
}

/** The header `testWrites`: key patterns as a list or comma-separated text. */
export function extraWritePatterns(header: unknown): string[] {
  if (header === undefined || header === null || header === '') return [];
  const list = Array.isArray(header) ? header : String(header).split(',');
  return list.map((p) => String(p).trim().replace(/^\//, '')).filter((p) => p !== '');
}

export class WriteScope {
  private readonly patterns: KeyPattern[];

  constructor(
    readonly appFolder: string,
    extra: string[],
  ) {
    this.patterns = [compileKeyPattern(`${appFolder}/**`), ...extra.map((p) => compileKeyPattern(p))];
  }

  /** Throws FORBIDDEN unless the key (or every key a pattern can reach) lies inside the scope. */
  check(raw: unknown, isPattern = false): void {
    const key = String(raw ?? '').replace(/^\//, '');
    const inside = isPattern
      ? this.patterns.some((p) => p.source === key || coversPattern(p.source, key))
      : this.patterns.some((p) => p.matches(key));
    if (!inside) {
      throw new PipeworkError(
        'FORBIDDEN',
        `A test may change properties only inside its app folder ${this.appFolder}/ (not '${key}'); ` +
          "name more key patterns in the test's header testWrites.",
        { key },
      );
    }
  }
}

/** True when the allowed pattern is a folder (`<literal>/**`) and every key the pattern can reach lies in it. */
function coversPattern(allowed: string, pattern: string): boolean {
  const folder = literalPrefixOf(allowed);
  return allowed === `${folder}**` && folder.endsWith('/') && literalPrefixOf(pattern).startsWith(folder);
}

type Method = (...args: unknown[]) => unknown;

/** Which argument of a writing method holds a key (or, for deleteMatching, a pattern). */
const WRITES: Record<string, (args: unknown[], scope: WriteScope) => void> = {
  create: (a, s) => s.check((a[1] as { key?: unknown } | undefined)?.key),
  put: (a, s) => s.check((a[1] as { key?: unknown } | undefined)?.key),
  delete: (a, s) => s.check(a[1]),
  remove: (a, s) => s.check(a[1]),
  deleteMatching: (a, s) => s.check(a[1], true),
  copy: (a, s) => s.check(a[2]),
  move: (a, s) => (s.check(a[1]), s.check(a[2])),
};
const ATTACHMENT_WRITES = new Set(['put', 'putChunk', 'write', 'delete']);

function guard<T extends object>(target: T, checks: (name: string, args: unknown[]) => void): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        checks(name, args);
        return (value as Method).apply(object, args);
      };
    },
  });
}

/** The property service as a test sees it: writes outside the scope are FORBIDDEN. */
export function guardedProperties(properties: PropertyService, scope: WriteScope): PropertyService {
  const attachments = guard(properties.attachments, (name, args) => {
    if (ATTACHMENT_WRITES.has(name)) scope.check(args[1]);
  });
  const guarded = guard(properties, (name, args) => WRITES[name]?.(args, scope));
  return new Proxy(guarded, {
    get: (object, name, receiver) =>
      name === 'attachments' ? attachments : (Reflect.get(object, name, receiver) as unknown),
  });
}
