/** Key arithmetic for the tree: parents, names, and which folders a change touches. */
import type { TreeEntry } from './property-types';

/** The folder holding `path`, or null for a top-level folder such as `global`. */
export function parentOf(path: string): string | null {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? null : path.slice(0, slash);
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Every folder above `key`, nearest first, ending with null (the top level). */
export function ancestorsOf(key: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (let parent = parentOf(key); parent !== null; parent = parentOf(parent)) out.push(parent);
  out.push(null);
  return out;
}

/** A `property.keys.children` answer as entries: `a/b/` is the folder `a/b`, `a/b` the property. */
export function toEntries(children: readonly string[]): TreeEntry[] {
  return children.map((child) => {
    const folder = child.endsWith('/');
    const path = folder ? child.slice(0, -1) : child;
    return { path, name: nameOf(path), folder };
  });
}

/** An app's test folder (`global/app/<app>/test`, `tenant/<uuid>/app/<app>/test`): it can run its tests. */
export function isTestFolder(path: string): boolean {
  return /^(global|tenant\/[^/]+)\/app\/[^/]+\/test$/.test(path);
}

/** A stored pipeline: YAML (or JSON) under an app's `pipeline/` or `test/` folder, or marked `type=pipeline`. */
export function isPipelineProperty(key: string, type: string): boolean {
  const mime = type.toLowerCase();
  if (mime.includes('type=pipeline')) return true;
  return /\/(pipeline|test)\//.test(key) && /(yaml|json)(;|$)/.test(mime);
}

/** Values stored as base64 (bytes) are shown, not edited. */
export function isBinaryType(type: string): boolean {
  return /;\s*encoding=base64/i.test(type);
}
