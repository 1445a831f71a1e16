/**
 * `pi publish <folder>`: every file under the folder becomes a property whose key is its path without the
 * extension (`global/app/demo/pipeline/submit.pi.yaml` → `global/app/demo/pipeline/submit`); only new or
 * changed files are uploaded, decided by the server's hash of each value.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Extensions the key leaves out, longest first so `.pi.yaml` wins over `.yaml`. */
const TYPES: [string, string][] = [
  ['.pi.yaml', 'application/yaml;type=pipeline'],
  ['.pi.yml', 'application/yaml;type=pipeline'],
  ['.pi.json', 'application/json;type=pipeline'],
  ['.json', 'application/json'],
  ['.yaml', 'application/yaml'],
  ['.yml', 'application/yaml'],
  ['.xml', 'application/xml'],
  ['.bpmn', 'application/xml;type=bpmn'],
  ['.js', 'application/javascript'],
  ['.py', 'text/x-python'],
  ['.groovy', 'text/x-groovy'],
  ['.html', 'text/html'],
  ['.css', 'text/css'],
  ['.md', 'text/markdown'],
  ['.txt', 'text/plain'],
  ['.csv', 'text/csv'],
  ['.png', 'image/png;encoding=base64'],
  ['.jpg', 'image/jpeg;encoding=base64'],
  ['.jpeg', 'image/jpeg;encoding=base64'],
  ['.gif', 'image/gif;encoding=base64'],
  ['.pdf', 'application/pdf;encoding=base64'],
];

export interface LocalProperty {
  key: string;
  value: string;
  type: string;
  file: string;
}

function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The key, value and mime type a file becomes: the type from its extension, else from its content. */
export function toProperty(file: string, relativePath: string, bytes: Buffer): LocalProperty {
  const path = relativePath.split(sep).join('/');
  const known = TYPES.find(([ext]) => path.toLowerCase().endsWith(ext));
  const key = known ? path.slice(0, -known[0].length) : path.replace(/\.[^./]+$/, '');
  const type = known?.[1] ?? (isText(bytes) ? 'text/plain' : 'application/octet-stream;encoding=base64');
  const value = type.includes('encoding=base64') ? bytes.toString('base64') : bytes.toString('utf8');
  return { key, value, type, file };
}

const ROOTS = ['global', 'group', 'tenant', 'user'];

/**
 * Where a folder's files go: a workspace (a folder holding `global/`, ...) maps its paths to keys as they are;
 * a folder inside one (`.../global/app/invoiceform`, as the real product's CLI publishes an app) maps them below
 * its own path from that root on. Undefined for a folder that is neither.
 */
export function keyPrefixOf(folder: string): string | undefined {
  if (readdirSync(folder).some((name) => ROOTS.includes(name))) return '';
  const segments = resolve(folder).split(sep);
  const root = segments.findLastIndex((segment) => ROOTS.includes(segment));
  return root < 0 ? undefined : `${segments.slice(root).join('/')}/`;
}

/** Why `keyPrefixOf` found no place for a folder, as a user can act on it. */
export function noKeyPrefix(folder: string): string {
  return (
    `${folder} holds no global/, group/, tenant/ or user/ folder and is not inside one: give the workspace ` +
    'folder (holding global/app/<app>/...) or an app folder inside it'
  );
}

/** Every file below the folder (hidden files and folders left out), as properties keyed by `keyPrefixOf`. */
export function readFolder(folder: string): LocalProperty[] {
  const prefix = keyPrefixOf(folder);
  if (prefix === undefined) throw new Error(noKeyPrefix(folder));
  const out: LocalProperty[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile())
        out.push(toProperty(path, prefix + relative(folder, path).split(sep).join('/'), readFileSync(path)));
    }
  };
  walk(folder);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** The SHA-256 (hex) of a value's text: what `property.list` with `hash=true` reports per property. */
export function valueHash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export interface RemoteProperty {
  hash: string | null;
  type: string | null;
}

export type Change = 'created' | 'updated' | 'unchanged';

export interface PlannedProperty extends LocalProperty {
  change: Change;
}

/** Compares each local property with the server's hash and type: new, changed, or the same. */
export function planPublish(
  local: readonly LocalProperty[],
  remote: ReadonlyMap<string, RemoteProperty>,
): PlannedProperty[] {
  return local.map((p) => {
    const there = remote.get(p.key);
    if (!there) return { ...p, change: 'created' };
    const same = there.hash === valueHash(p.value) && (there.type ?? 'text/plain') === p.type;
    return { ...p, change: same ? 'unchanged' : 'updated' };
  });
}

/** What must be uploaded: the local properties whose key is new or whose value or type differs. */
export function changedProperties(
  local: readonly LocalProperty[],
  remote: ReadonlyMap<string, RemoteProperty>,
): LocalProperty[] {
  return planPublish(local, remote).filter((p) => p.change !== 'unchanged');
}

/** The folder each key lives in for one listing call: its app folder (`<root>/app/<name>`), else its first two segments. */
function listingFolder(key: string): string {
  const app = /^(.*?(?:^|\/)app\/[^/]+)\//.exec(key);
  return app ? app[1]! : key.split('/').slice(0, 2).join('/');
}

/** The patterns to list what the server has, one call each. */
export function listingPatterns(local: readonly LocalProperty[]): string[] {
  return [...new Set(local.map((p) => `${listingFolder(p.key)}/**`))];
}

/** The app folders (`<root>/app/<name>`) that have tests among the local properties. */
export function appsWithTests(local: readonly LocalProperty[]): string[] {
  const apps = new Set<string>();
  for (const p of local) {
    const match = /^(.*?(?:^|\/)app\/[^/]+)\/test\//.exec(p.key);
    if (match) apps.add(match[1]!);
  }
  return [...apps].sort();
}
