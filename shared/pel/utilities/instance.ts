/** `@instance`: facts about the running service, filled in by the server (never secrets: `env` reads only public names). */
import type { PelUtility } from '../types';
import { type UtilitySpec, listOrText, optionalText, text, toUtility } from './support';

export interface PelInstanceInfo {
  profiles: readonly string[];
  name?: string;
  /** The public environment values `@instance.env(name)` may read (the server picks them; never secrets). */
  env?: Readonly<Record<string, string>>;
  domain?: string | null;
  namespace?: string | null;
  /** The service's own base URL. */
  url?: string | null;
  /** Base URLs of named services (`@instance.url('hub')`). */
  serviceUrls?: Readonly<Record<string, string>>;
  stage?: string | null;
  version?: string | null;
  build?: string | null;
  edition?: string | null;
  storage?: string | null;
  tag?: string | null;
  /** When the service started (epoch milliseconds), for `uptime()`. */
  startedAt?: number;
  /** The image repository (`registry/namespace`) images are pulled from. */
  imageRepo?: string | null;
}

const or = (v: string | null | undefined): string | null => v ?? null;

/** The `@instance` spec over the server's facts; the docs are the spec over a bare instance. */
export function instanceSpec(info: PelInstanceInfo): UtilitySpec {
  return {
    name: 'instance',
    doc: 'The running service (filled in by the server).',
    serverProvided: true,
    functions: {
      profiles: {
        signature: 'profiles()',
        doc: "The active profiles, e.g. {'test'}.",
        fn: () => [...info.profiles],
      },
      hasProfile: {
        signature: 'hasProfile(profiles)',
        doc: "True when any of the profiles (one, a list or comma-separated text) is active: @instance.hasProfile('dev, test').",
        fn: (...a) => listOrText('hasProfile', a, 0).some((p) => info.profiles.includes(String(p))),
      },
      name: { signature: 'name()', doc: 'The instance name.', fn: () => info.name ?? null },
      env: {
        signature: 'env(name)',
        doc: 'A public setting of the environment (only the names the server publishes, PIPEWORK_ENV_<name>); null otherwise.',
        fn: (...a) => {
          const name = text('env', a, 0);
          const env = info.env ?? {};
          return Object.hasOwn(env, name) ? env[name]! : null;
        },
      },
      domain: { signature: 'domain()', doc: "The instance's domain (host name).", fn: () => or(info.domain) },
      namespace: {
        signature: 'namespace()',
        doc: "The instance's namespace (its name).",
        fn: () => or(info.namespace),
      },
      url: {
        signature: 'url(serviceName)',
        overloads: ['url()'],
        doc: "The instance's base URL, or a named service's (null when unknown).",
        fn: (...a) => {
          const service = optionalText('url', a, 0, '');
          if (service === '') return or(info.url);
          const urls = info.serviceUrls ?? {};
          return Object.hasOwn(urls, service) ? urls[service]! : null;
        },
      },
      stage: {
        signature: 'stage()',
        doc: "The stage: 'dev', 'test' or 'prod' (from the profiles).",
        fn: () => or(info.stage),
      },
      version: { signature: 'version()', doc: 'The service version.', fn: () => or(info.version) },
      build: { signature: 'build()', doc: 'The build id.', fn: () => or(info.build) },
      edition: { signature: 'edition()', doc: 'The edition.', fn: () => or(info.edition) },
      storage: {
        signature: 'storage()',
        doc: "The property store's kind (e.g. 'sqlite').",
        fn: () => or(info.storage),
      },
      tag: { signature: 'tag()', doc: 'The release tag.', fn: () => or(info.tag) },
      uptime: {
        signature: 'uptime()',
        doc: 'Milliseconds since the service started.',
        fn: () => (info.startedAt === undefined ? null : Math.max(0, Date.now() - info.startedAt)),
      },
      defaultImageRepo: {
        signature: 'defaultImageRepo(image)',
        doc: "The image name prefixed with the default image repository: @instance.defaultImageRepo('app:1') is 'repo/app:1'.",
        fn: (...a) => {
          const image = text('defaultImageRepo', a, 0);
          const repo = info.imageRepo;
          return repo ? `${repo.replace(/\/+$/, '')}/${image}` : image;
        },
      },
    },
  };
}

/** The `@instance` functions, for `options.utilities.instance`. */
export function createInstanceUtility(info: PelInstanceInfo): PelUtility {
  return toUtility(instanceSpec(info));
}

export const instanceUtilityDocs: UtilitySpec = instanceSpec({ profiles: [] });
