/** Small request helpers for the reliability suite: command calls that report what the server acknowledged. */
import { ADMIN_AUTH } from './server-process';

export interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads arbitrary command results
  bytes: Buffer;
}

/** Calls a command; a connection error (the server was killed) answers status 0. */
export async function command(
  url: string,
  name: string,
  params: Record<string, string | number> = {},
  body?: { data: string | Buffer; type: string },
  signal?: AbortSignal,
): Promise<Answer> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  try {
    const response = await fetch(`${url}/api/v3/command/${name}?${query}`, {
      // POST always: commands that write are refused over GET (server/http/browser-request-guard.ts).
      method: 'POST',
      headers: { authorization: ADMIN_AUTH, ...(body ? { 'content-type': body.type } : {}) },
      body: typeof body?.data === 'string' ? body.data : body ? new Uint8Array(body.data) : undefined,
      signal,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    return { status: response.status, json: isJson ? JSON.parse(bytes.toString()) : undefined, bytes };
  } catch {
    return { status: 0, json: undefined, bytes: Buffer.alloc(0) };
  }
}
