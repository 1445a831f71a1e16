/** The app folder layout (spec 2.4): where an app lives, its sections, object schemas and instances, reserved apps. */

/** Built-in global apps that nobody may change or remove (spec 2.4). */
export const RESERVED_APPS = [
  'delivery',
  'dropin',
  'application',
  'itrequest',
  'accessrequest',
  'travelexpense',
  'sop',
  'accountpayable',
  'sickleave',
  'vacationrequest',
  'onboarding',
] as const;

/** Their folder keys, `global/app/<name>`. */
export const RESERVED_APP_KEYS: readonly string[] = RESERVED_APPS.map((name) => `global/app/${name}`);

const RESERVED_SET: ReadonlySet<string> = new Set(RESERVED_APPS);

/** The well-known sections inside an app folder. */
export const APP_SECTIONS = ['form', 'list', 'object', 'pipeline', 'script', 'test', 'workflow'] as const;

/** The sections whose contents run as code (pipelines, scripts, tests, workflows): who may store them is limited. */
export const EXECUTABLE_APP_SECTIONS: readonly string[] = ['pipeline', 'script', 'test', 'workflow'];

/** Where a key sits inside an app: `<root>/app/<name>` or `<root>/<owner>/app/<name>`, then `path`. */
export interface AppFolder {
  /** The app folder's key, e.g. `global/app/invoice` or `tenant/<uuid>/app/invoice`. */
  folder: string;
  name: string;
  /** Segments below the app folder (empty for the folder key itself). */
  path: string[];
}

/** The app a key belongs to, or undefined when it is not inside an app folder. */
export function appFolderOf(key: string): AppFolder | undefined {
  const segments = key.split('/');
  const appIndex = segments[0] === 'global' ? 1 : 2;
  if (segments[appIndex] !== 'app' || segments.length <= appIndex + 1) return undefined;
  const name = segments[appIndex + 1]!;
  return {
    folder: segments.slice(0, appIndex + 2).join('/'),
    name,
    path: segments.slice(appIndex + 2),
  };
}

/** True for a reserved built-in app folder or anything inside it. */
export function isReservedAppKey(key: string): boolean {
  if (!key.startsWith('global/app/')) return false;
  const name = key.slice('global/app/'.length).split('/', 1)[0]!;
  return RESERVED_SET.has(name);
}

/** True when a subtree rooted at `folderKey` contains a reserved app (e.g. `global/app` or `global`). */
export function containsReservedApp(folderKey: string): boolean {
  return RESERVED_APP_KEYS.some((k) => k === folderKey || k.startsWith(`${folderKey}/`));
}

/** An object schema or instance key: `<app>/object/<NAME>/<VERSION>/schema` or `.../instance/<UUID>`. */
export interface ObjectKey {
  app: AppFolder;
  objectName: string;
  version: string;
  kind: 'schema' | 'instance';
  /** The instance's id (the last segment) for instances. */
  instanceId?: string;
  /** The key of the schema that governs this object version. */
  schemaKey: string;
}

/** Recognises object schema and instance keys; undefined for any other key. */
export function objectKeyOf(key: string): ObjectKey | undefined {
  const app = appFolderOf(key);
  if (!app || app.path[0] !== 'object') return undefined;
  const [, objectName, version, section, instanceId, ...rest] = app.path;
  if (!objectName || !version || rest.length > 0) return undefined;
  const schemaKey = `${app.folder}/object/${objectName}/${version}/schema`;
  if (section === 'schema' && instanceId === undefined)
    return { app, objectName, version, kind: 'schema', schemaKey };
  if (section === 'instance' && instanceId !== undefined) {
    return { app, objectName, version, kind: 'instance', instanceId, schemaKey };
  }
  return undefined;
}

/** True for a stored pipeline: `<app>/pipeline/<name>` (at any depth below `pipeline`). */
export function isAppPipelineKey(key: string): boolean {
  const app = appFolderOf(key);
  return app !== undefined && app.path[0] === 'pipeline' && app.path.length > 1;
}

/** The app of a key inside an executable section (`<app>/pipeline/...`, `script`, `test`, `workflow`), or undefined. */
export function executableAppOf(key: string): AppFolder | undefined {
  const app = appFolderOf(key);
  return app && EXECUTABLE_APP_SECTIONS.includes(app.path[0] ?? '') ? app : undefined;
}
