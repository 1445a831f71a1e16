/**
 * `@instance`: what a pipeline may know of the server it runs on (its profiles, e.g. to skip setup in tests,
 * its name and URL). `@instance.env(name)` reads only `PIPEWORK_ENV_<name>` variables: published on purpose,
 * never the server's secrets.
 */
import { readFileSync } from 'node:fs';
import { createInstanceUtility, type PelInstanceInfo, type PelUtilities } from '../../shared/pel';
import type { ServerServices } from '../services';

/** The environment prefix of values `@instance.env` may read. */
export const PUBLIC_ENV_PREFIX = 'PIPEWORK_ENV_';

const startedAt = Date.now();

let version: string | null | undefined;

/** The version in package.json, read on first use only (`config.get` asks on every call). */
function packageVersion(): string | null {
  if (version === undefined) version = readPackageVersion();
  return version;
}

function readPackageVersion(): string | null {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? null;
  } catch {
    return null;
  }
}

function publicEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith(PUBLIC_ENV_PREFIX) && value !== undefined)
      out[name.slice(PUBLIC_ENV_PREFIX.length)] = value;
  return out;
}

function stageOf(profiles: readonly string[]): string {
  return ['prod', 'test', 'dev'].find((s) => profiles.includes(s)) ?? 'prod';
}

/** What `@instance` tells, once per server (it does not depend on the caller). */
export function instanceInfo(
  services: ServerServices,
  env: NodeJS.ProcessEnv = process.env,
): PelInstanceInfo {
  const { profiles, realm, publicUrl, host, port } = services.config;
  const url = publicUrl ?? `http://${host}:${port}`;
  return {
    profiles,
    name: realm,
    namespace: realm,
    domain: new URL(url).hostname,
    url,
    stage: stageOf(profiles),
    version: packageVersion(),
    edition: 'pipework',
    storage: 'sqlite',
    startedAt,
    env: publicEnv(env),
  };
}

/** By the services' configuration: the same for every run's view of the services (`run-scope.ts`). */
const built = new WeakMap<ServerServices['config'], PelUtilities>();

export function instanceUtilityFactory(_principal: unknown, services: ServerServices): PelUtilities {
  let utilities = built.get(services.config);
  if (!utilities) {
    utilities = { instance: createInstanceUtility(instanceInfo(services)) };
    built.set(services.config, utilities);
  }
  return utilities;
}
