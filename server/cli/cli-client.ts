/** The CLI's connection to a Pipework server: base URL, credentials, and error bodies turned into messages. */
import { EXIT, exitCodeOfStatus } from './exit-codes';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** A failure `pi` reports on one line and ends with `exitCode` (see exit-codes.ts). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
    /** The failure's code when the message does not start with one (see failure-line.ts). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Where to send requests and how to prove who we are. */
export interface CliSettings {
  url: string;
  /** A fixed `Authorization` value (from --user or the environment). */
  authorization?: string;
  /** The stored login: a Bearer token refreshed when it expires. */
  session?: LoginSession;
}

/** What `send` needs of a stored login: its current token, and a way to renew it. */
export interface LoginSession {
  token(): Promise<string>;
  /** Renews the tokens after the server refused the current one; false when that is not possible. */
  renew(): Promise<boolean>;
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/**
 * Credentials from the command line or the environment, which win over a stored login: `--user
 * USER[:PASSWORD]`, then PIPEWORK_TOKEN (Bearer), then PIPEWORK_USER + PIPEWORK_PASSWORD (Basic).
 */
export function authorizationFromEnv(env: NodeJS.ProcessEnv, userOption?: string): string | undefined {
  if (userOption) {
    const colon = userOption.indexOf(':');
    const user = colon < 0 ? userOption : userOption.slice(0, colon);
    const password = colon < 0 ? (env.PIPEWORK_PASSWORD ?? '') : userOption.slice(colon + 1);
    return basic(user, password);
  }
  if (env.PIPEWORK_TOKEN) return `Bearer ${env.PIPEWORK_TOKEN}`;
  if (env.PIPEWORK_USER) return basic(env.PIPEWORK_USER, env.PIPEWORK_PASSWORD ?? '');
  return undefined;
}

export function normalizeUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

interface ErrorValue {
  code?: string;
  message?: string;
  line?: number;
  column?: number;
  commandName?: string;
  commandIndex?: number;
}

/**
 * One line a developer can act on: `PEL_SYNTAX at file.pi.yaml:3:22 in log (step 1): ...`. Steps count from 1, as
 * in the workbench; the JSON contract's `commandIndex` stays 0-based.
 */
export function describeError(status: number, body: string, source?: string): string {
  let value: ErrorValue | undefined;
  try {
    value = (JSON.parse(body) as { value?: ErrorValue }).value;
  } catch {
    value = undefined;
  }
  if (!value?.code) return `HTTP ${status}: ${body.slice(0, 500)}`;
  const where =
    value.line !== undefined ? ` at ${source ? `${source}:` : ''}${value.line}:${value.column ?? 1}` : '';
  const step = value.commandName ? ` in ${value.commandName} (step ${(value.commandIndex ?? 0) + 1})` : '';
  return `${value.code}${where}${step}: ${value.message ?? ''}`;
}

export interface CliResponse {
  status: number;
  contentType: string;
  bytes: Uint8Array;
  /** The body as a stream, when the request asked for one (`stream`); `bytes` is then empty. */
  stream?: ReadableStream<Uint8Array>;
  text(): string;
  json<T = unknown>(): T;
}

export interface SendOptions {
  method?: string;
  body?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  /** The file or key the request's pipeline came from, for error positions. */
  source?: string;
  /** Hand the body on as a stream (e.g. Server-Sent Events), ended by this signal. */
  stream?: AbortSignal;
}

async function fetchOnce(settings: CliSettings, path: string, init: SendOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  const authorization =
    settings.authorization ?? (settings.session && `Bearer ${await settings.session.token()}`);
  if (authorization) headers.authorization = authorization;
  if (init.contentType) headers['content-type'] = init.contentType;
  // Runs started by the CLI are recorded with the trigger 'cli' (docs/runs.md).
  headers['x-pipework-client'] = 'cli';
  try {
    return await fetch(settings.url + path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      signal: init.stream,
    });
  } catch (error) {
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    throw new CliError(
      `Cannot reach ${settings.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      EXIT.failed,
      'UNREACHABLE',
    );
  }
}

/** A JSON answer; one that is not JSON means the address is not a Pipework server (a proxy, a web page). */
function parseAnswer<T>(text: string | null, url: string): T {
  if (text === null) return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CliError(`${url} answered with something that is not JSON.`, EXIT.failed, 'BAD_ANSWER');
  }
}

/** Sends a request; a non-2xx answer becomes a CliError with the described error and its exit code. */
export async function send(
  settings: CliSettings,
  path: string,
  init: SendOptions = {},
): Promise<CliResponse> {
  let response = await fetchOnce(settings, path, init);
  if (
    response.status === 401 &&
    !settings.authorization &&
    settings.session &&
    (await settings.session.renew())
  )
    response = await fetchOnce(settings, path, init);
  if (response.ok && init.stream && response.body) {
    const empty = new Uint8Array();
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      bytes: empty,
      stream: response.body,
      text: () => '',
      json: <T>() => null as T,
    };
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = () => Buffer.from(bytes).toString('utf8');
  if (!response.ok) {
    let message = describeError(response.status, text(), init.source);
    if (response.status === 401 && !settings.authorization && !settings.session)
      message += " (run 'pi login', or set PIPEWORK_TOKEN or PIPEWORK_USER and PIPEWORK_PASSWORD)";
    throw new CliError(message, exitCodeOfStatus(response.status));
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    bytes,
    text,
    json: <T>() => parseAnswer<T>(bytes.length ? text() : null, settings.url),
  };
}

/** Calls a command with parameters as a form body (safe for long values) and returns its JSON answer. */
export async function command<T = unknown>(
  settings: CliSettings,
  name: string,
  params: Record<string, string | number | boolean | undefined> = {},
  source?: string,
): Promise<T> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.append(k, String(v));
  const response = await send(settings, `/api/v3/command/${encodeURIComponent(name)}`, {
    method: 'POST',
    body: form.toString(),
    contentType: 'application/x-www-form-urlencoded',
    source,
  });
  return response.json<T>();
}
