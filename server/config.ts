/** The server's settings, read once from the environment with documented defaults. */
import { type PostgresDatabaseConfig, loadPostgresDatabaseConfig } from './db/database-config';
import type { BruteForcePolicy } from './iam/brute-force-guard';
import { loadBruteForcePolicy } from './iam/login-limits-config';
import { resolve } from 'node:path';
import { loadHttpClientConfig, type HttpClientConfig } from './http-client/http-client-config';
import { loadScriptConfig, type ScriptConfig } from './script/script-config';
import { readSqlConfig, type SqlConfig } from './datasources/datasource-config';
import { loadCacheConfig, type CacheConfig } from './cache/cache-config';
import { loadNamedKeys } from './commands/crypto/named-keys';
import { loadDriveConfig, type DriveConfig } from './drive/drive-config';
import { loadMailConfig, type MailConfig } from './mail/mail-config';
import { loadDeliveryConfig, type DeliveryConfig } from './delivery/delivery-config';
import { loadSecretKeyConfig, type SecretKeyConfig } from './secrets/secret-keys';
import { loadListenerConfig, type ListenerConfig } from './http/listener-config';
import { nonNegativeIntFrom } from './config-env';
import { loadCascadeLimits, type CascadeLimits } from './events/cascade-budget';
import { loadHistoryBounds } from './store/history-config';
import { DEFAULT_TRASH_BIN_DAYS } from './store/property-marks-service';
import type { HistoryBounds } from '../shared/property';
import { loadRunLimitsConfig, type RunLimitsConfig } from './fairness/run-limits-config';
import { loadRunHistoryConfig, type RunHistoryConfig } from './runs/run-history-config';

export interface ServerConfig {
  host: string;
  port: number;
  /** Folder of the SQLite database and other state. */
  dataDir: string;
  /** The SQLite file (`:memory:` in some tests); unused when `database` is PostgreSQL. */
  databaseFile: string;
  /** PostgreSQL instead of SQLite, shared by several instances (`PIPEWORK_DATABASE_URL`). */
  database?: PostgresDatabaseConfig;
  /** Failed-login slowing and locking (`PIPEWORK_LOGIN_*`); defaults when absent. */
  bruteForce?: BruteForcePolicy;
  /** Password of the first-start `admin`; random (printed once, written to a file) when unset. */
  adminPassword?: string;
  /** OpenID realm of the token endpoint. */
  realm: string;
  /** Public base URL used as the token issuer (defaults to http://host:port). */
  publicUrl?: string;
  logLevel: string;
  /**
   * Origins (besides the server's own) whose browser pages may call the API (`PIPEWORK_ALLOWED_ORIGINS`, comma
   * separated, e.g. `https://portal.example.com`); a request with any other `Origin` is refused.
   */
  allowedOrigins?: string[];
  /** Deployment profiles (`PIPEWORK_PROFILES=test,dev`), readable as `@instance.profiles()`. */
  profiles: string[];
  /** The HTTP listener: slow-client timeouts and the stop's grace period (defaults when absent). */
  listener?: ListenerConfig;
  /** The script sandbox (`script.run`): workers and the limits of one run. */
  scripts?: ScriptConfig;
  /** Per-user limits of pipeline runs at once and the fair queue (`PIPEWORK_RUNS_*`); defaults when absent. */
  runs?: RunLimitsConfig;
  /** The run history and async runs (`PIPEWORK_RUNS_HISTORY`, `..._TRACE_SAMPLE`, `PIPEWORK_ASYNC_*`); defaults when absent. */
  runHistory?: RunHistoryConfig;
  /** A bearer token that may read `GET /metrics` without signing in (`PIPEWORK_METRICS_TOKEN`). */
  metricsToken?: string;
  /** The budget of event.listen runs one write may cause (`PIPEWORK_EVENT_CASCADE_*`); defaults when absent. */
  eventCascade?: CascadeLimits;
  /** Property history kept per key (`PIPEWORK_HISTORY_MAX_VERSIONS`, `PIPEWORK_HISTORY_MAX_DAYS`); defaults when absent. */
  history?: HistoryBounds;
  /** Days the trash bin keeps a deleted property unless `trashBinTimeToLive` says otherwise (`PIPEWORK_TRASH_BIN_DAYS`). */
  trashBinDays?: number;
  /** Outbound HTTP (`http.*`): allowed non-public addresses, timeouts, sizes. */
  httpClient?: HttpClientConfig;
  /** SQL data sources for `sql.query` (PIPEWORK_DATASOURCE_<NAME>_URL) and their limits. */
  sql?: SqlConfig;
  /** The drive (`drive.*`): its folder and file size limit. */
  drive?: DriveConfig;
  /** Mail (`mail.*`): the SMTP server or the outbox, the default sender. */
  mail?: MailConfig;
  /** Secure delivery (`delivery.*`): sizes and the download page's limits. */
  delivery?: DeliveryConfig;
  /** Where the master key of the secrets comes from (`PIPEWORK_SECRETS_KEY` or the key file). */
  secrets?: SecretKeyConfig;
  /** The in-memory cache (`cache.*`): its bounds. */
  cache?: CacheConfig;
  /** Named keys for `encrypt`/`decrypt` (`PIPEWORK_KEY_<NAME>`); secrets. */
  keys?: Record<string, string>;
  limits: {
    /** Buffered command input body. */
    commandBodyBytes: number;
    /** Pipeline scripts. */
    pipelineBodyBytes: number;
    /** One streamed upload (a raw body or a multipart file part), spooled to temp storage. */
    uploadBytes: number;
    /** Steps one pipeline run may execute. */
    pipelineSteps: number;
    /** Wall time of one pipeline run. */
    pipelineMillis: number;
  };
}

const MiB = 1024 * 1024;

/** A comma-separated setting as a list, empty entries dropped. */
function listFrom(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Reads the configuration from environment variables (see README "Configuration"). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(env.PIPEWORK_DATA ?? 'data');
  return {
    host: env.HOST ?? '127.0.0.1',
    port: nonNegativeIntFrom(env, 'PORT', 8080),
    dataDir,
    databaseFile: resolve(dataDir, 'pipework.sqlite'),
    database: loadPostgresDatabaseConfig(env),
    bruteForce: loadBruteForcePolicy(env),
    adminPassword: env.PIPEWORK_ADMIN_PASSWORD || undefined,
    realm: env.PIPEWORK_REALM ?? 'pipework',
    publicUrl: env.PIPEWORK_PUBLIC_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    allowedOrigins: listFrom(env.PIPEWORK_ALLOWED_ORIGINS),
    profiles: listFrom(env.PIPEWORK_PROFILES),
    listener: loadListenerConfig(env),
    sql: readSqlConfig(env),
    drive: loadDriveConfig(env, dataDir),
    mail: loadMailConfig(env, dataDir),
    delivery: loadDeliveryConfig(env),
    secrets: loadSecretKeyConfig(env, dataDir),
    cache: loadCacheConfig(env),
    keys: loadNamedKeys(env),
    scripts: loadScriptConfig(env),
    runs: loadRunLimitsConfig(env),
    runHistory: loadRunHistoryConfig(env),
    metricsToken: env.PIPEWORK_METRICS_TOKEN || undefined,
    eventCascade: loadCascadeLimits(env),
    history: loadHistoryBounds(env),
    trashBinDays: nonNegativeIntFrom(env, 'PIPEWORK_TRASH_BIN_DAYS', DEFAULT_TRASH_BIN_DAYS),
    httpClient: loadHttpClientConfig(env),
    limits: {
      commandBodyBytes: nonNegativeIntFrom(env, 'PIPEWORK_MAX_COMMAND_BODY', 10 * MiB),
      pipelineBodyBytes: nonNegativeIntFrom(env, 'PIPEWORK_MAX_PIPELINE_BODY', 1 * MiB),
      uploadBytes: nonNegativeIntFrom(env, 'PIPEWORK_MAX_UPLOAD', 2048 * MiB),
      pipelineSteps: nonNegativeIntFrom(env, 'PIPEWORK_MAX_PIPELINE_STEPS', 100_000),
      pipelineMillis: nonNegativeIntFrom(env, 'PIPEWORK_MAX_PIPELINE_MILLIS', 60_000),
    },
  };
}
