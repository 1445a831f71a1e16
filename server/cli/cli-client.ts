/** The CLI's connection to a Pipework server: base URL, credentials, and error bodies turned into messages. */

export interface CliSettings {
  url: string;
  authorization?: string;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Reads PIPEWORK_URL and the credentials: PIPEWORK_TOKEN (Bearer) or PIPEWORK_USER + PIPEWORK_PASSWORD (Basic). */
export function settingsFromEnv(env: NodeJS.ProcessEnv, userOption?: string): CliSettings {
  const url = (env.PIPEWORK_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  if (userOption) {
    const colon = userOption.indexOf(':');
    const user = colon < 0 ? userOption : userOption.slice(0, colon);
    const password = colon < 0 ? (env.PIPEWORK_PASSWORD ?? '') : userOption.slice(colon + 1);
    return { url, authorization: basic(user, password) };
  }
  if (env.PIPEWORK_TOKEN) return { url, authorization: `Bearer ${env.PIPEWORK_TOKEN}` };
  if (env.PIPEWORK_USER) return { url, authorization: basic(env.PIPEWORK_USER, env.PIPEWORK_PASSWORD ?? '') };
  return { url };
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

interface ErrorValue {
  code?: string;
  message?: string;
  line?: number;
  column?: number;
  commandName?: string;
  commandIndex?: number;
}

/** One line a developer can act on: `PEL_SYNTAX at 3:22 in log (step 0): ...`. */
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
  const step = value.commandName ? ` in ${value.commandName} (step ${value.commandIndex ?? 0})` : '';
  return `${value.code}${where}${step}: ${value.message ?? ''}`;
}

export interface CliResponse {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

/** Sends a request; a non-2xx answer becomes a CliError with the described error. */
export async function send(
  settings: CliSettings,
  path: string,
  init: {
    method?: string;
    body?: string | Uint8Array<ArrayBuffer>;
    contentType?: string;
    source?: string;
  } = {},
): Promise<CliResponse> {
  const headers: Record<string, string> = {};
  if (settings.authorization) headers.authorization = settings.authorization;
  if (init.contentType) headers['content-type'] = init.contentType;
  let response: Response;
  try {
    response = await fetch(settings.url + path, { method: init.method ?? 'GET', headers, body: init.body });
  } catch (error) {
    throw new CliError(`Cannot reach ${settings.url}: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok)
    throw new CliError(describeError(response.status, Buffer.from(bytes).toString('utf8'), init.source));
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', bytes };
}
