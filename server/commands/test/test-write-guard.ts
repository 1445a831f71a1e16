/**
 * A test changes data only inside its own app folder (`<root>/app/<app>/`) and the key patterns the one who
 * runs it grants (`test.run` parameter `writes`): the scope comes from the runner, never from the test. The
 * test's own header `testWrites` may only narrow it (a key must then match one of its patterns too). Every
 * write is also checked by the folder rules for the run's principal (the runner bound by the test's author).
 * The guard wraps the property service the test's commands see; reads are not limited.
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

/** Key patterns given as a list or comma-separated text (the `writes` parameter, the `testWrites` header). */
export function keyPatternList(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((p) => String(p).trim().replace(/^\//, '')).filter((p) => p !== '');
}

function inside(patterns: readonly KeyPattern[], key: string, isPattern: boolean): boolean {
  return isPattern
    ? patterns.some((p) => p.source === key || coversPattern(p.source, key))
    : patterns.some((p) => p.matches(key));
}

export class WriteScope {
  private readonly granted: KeyPattern[];
  private readonly narrowed?: KeyPattern[];

  /**
   * @param granted the runner's extra key patterns (beside the app folder)
   * @param narrowedTo the test's `testWrites` patterns, when it has any: keys must match one of them too
   */
  constructor(
    readonly appFolder: string,
    granted: string[],
    narrowedTo: string[] = [],
  ) {
    this.granted = [compileKeyPattern(`${appFolder}/**`), ...granted.map((p) => compileKeyPattern(p))];
    if (narrowedTo.length > 0) this.narrowed = narrowedTo.map((p) => compileKeyPattern(p));
  }

  /** Throws FORBIDDEN unless the key (or every key a pattern can reach) lies inside the scope. */
  check(raw: unknown, isPattern = false): void {
    const key = String(raw ?? '').replace(/^\//, '');
    if (!inside(this.granted, key, isPattern)) {
      throw new PipeworkError(
        'FORBIDDEN',
        `A test may change properties only inside its app folder ${this.appFolder}/ (not '${key}'); ` +
          "whoever runs the tests may grant more key patterns with test.run's parameter writes.",
        { key },
      );
    }
    if (this.narrowed && !inside(this.narrowed, key, isPattern)) {
      throw new PipeworkError(
        'FORBIDDEN',
        `This test limits its own writes with its header testWrites, which does not cover '${key}'.`,
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
