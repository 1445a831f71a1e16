/**
 * Outbound HTTP with the SSRF guard: every connection goes through a lookup that refuses non-public addresses
 * (the address judged is the one connected to; literal addresses are judged before connecting), redirects are
 * followed by hand so each hop is judged again, the whole call has a deadline and the response a size limit.
 * Nothing of the incoming request is forwarded; credentials set by the pipeline are dropped on a redirect to
 * another origin.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { PipeworkError } from '../../shared/errors';
import { AddressPolicy } from './address-policy';
import type { HttpClientConfig } from './http-client-config';

export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Wall time of the whole call including redirects. */
  timeoutMillis: number;
  signal?: AbortSignal;
  /** More headers (lower-case) that carry credentials, dropped like `authorization` on a redirect to another origin. */
  credentialHeaders?: readonly string[];
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function refused(hostname: string, ip: string, kind: string): PipeworkError {
  return new PipeworkError(
    'FORBIDDEN',
    `Outbound HTTP to ${hostname} (${ip}, a ${kind} address) is refused; ` +
      'allow it with PIPEWORK_HTTP_ALLOW_HOSTS or PIPEWORK_HTTP_ALLOW_PRIVATE.',
    { host: hostname, address: ip, addressKind: kind },
  );
}

/** A `lookup` for sockets that refuses a name when any of its addresses is not allowed. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const kind = policy.refusal(hostname, address);
        if (kind)
          return callback(refused(hostname, address, kind) as unknown as NodeJS.ErrnoException, '', 0);
      }
      if (addresses.length === 0) return callback(new Error(`No address for ${hostname}`), '', 0);
      if ((options as { all?: boolean }).all) {
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      }
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export class OutboundHttp {
  private readonly policy: AddressPolicy;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;

  constructor(readonly config: HttpClientConfig) {
    this.policy = new AddressPolicy(config);
    const lookup = guardedLookup(this.policy);
    this.httpAgent = new HttpAgent({ keepAlive: true, lookup } as ConstructorParameters<typeof HttpAgent>[0]);
    this.httpsAgent = new HttpsAgent({ keepAlive: true, lookup } as ConstructorParameters<
      typeof HttpsAgent
    >[0]);
  }

  /** Sends the request, following up to `maxRedirects` redirects, each judged again. */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const deadline = AbortSignal.timeout(request.timeoutMillis);
    const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
    let { method, body } = request;
    let url = this.parse(request.url);
    const headers = { ...request.headers };
    for (let hop = 0; ; hop++) {
      const response = await this.once(method, url, headers, body, signal, request.timeoutMillis);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return { ...response, url: url.href };
      if (hop >= this.config.maxRedirects) {
        throw new PipeworkError(
          'UPSTREAM_FAILED',
          `More than ${this.config.maxRedirects} redirects from ${request.url}.`,
        );
      }
      const next = this.parse(new URL(location, url).href);
      if (next.origin !== url.origin) {
        for (const name of [...CREDENTIAL_HEADERS, ...(request.credentialHeaders ?? [])])
          delete headers[name];
      }
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      url = next;
    }
  }

  private parse(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new PipeworkError('PARAM_INVALID', `'${text}' is not a valid URL.`, { parameter: 'url' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new PipeworkError(
        'PARAM_INVALID',
        `Only http and https URLs can be called, not ${url.protocol}`,
        {
          parameter: 'url',
        },
      );
    }
    // A literal address is connected to without a lookup: judge it here (the URL parser has already turned
    // 127.1, 2130706433, 0x7f.0.0.1 and 017700000001 into 127.0.0.1).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const kind = this.policy.refusal(host, host);
      if (kind) throw refused(url.hostname, host, kind);
    }
    return url;
  }

  private once(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    signal: AbortSignal,
    timeoutMillis: number,
  ): Promise<Omit<OutboundResponse, 'url'>> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => reject(this.describe(error, url, signal, timeoutMillis));
      const sized = body ? { ...headers, 'content-length': String(body.byteLength) } : headers;
      const req = send(url, { method, headers: sized, agent, signal }, (res) =>
        this.read(res, url).then(
          (bytes) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes }),
          fail,
        ),
      );
      req.on('socket', (socket) => {
        // Belt and braces: the address a new socket reaches must be allowed too (a kept-alive one was judged).
        if (!socket.connecting) return;
        socket.once('connect', () => {
          const ip = socket.remoteAddress ?? '';
          const kind = this.policy.refusal(url.hostname, ip);
          if (kind) req.destroy(refused(url.hostname, ip, kind));
        });
      });
      req.on('error', fail);
      req.end(body);
    });
  }

  private read(res: IncomingMessage, url: URL): Promise<Buffer> {
    const limit = this.config.maxResponseBytes;
    return new Promise((resolve, reject) => {
      const declared = Number(res.headers['content-length'] ?? 0);
      const tooLarge = () =>
        new PipeworkError('LIMIT_EXCEEDED', `The response of ${url.origin} is larger than ${limit} bytes.`);
      if (declared > limit) {
        res.destroy();
        return reject(tooLarge());
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          res.destroy();
          reject(tooLarge());
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('The response was cut off.')));
    });
  }

  private describe(error: unknown, url: URL, signal: AbortSignal, timeoutMillis: number): PipeworkError {
    if (error instanceof PipeworkError) return error;
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof DOMException && reason.name === 'TimeoutError') {
        return new PipeworkError(
          'LIMIT_EXCEEDED',
          `The call to ${url.origin} took longer than ${timeoutMillis} ms.`,
        );
      }
      return new PipeworkError(
        'LIMIT_EXCEEDED',
        `The call to ${url.origin} was cancelled with its pipeline.`,
      );
    }
    const cause = error instanceof Error ? error : undefined;
    if (cause && 'cause' in cause && cause.cause instanceof PipeworkError) return cause.cause;
    const inner =
      error instanceof AggregateError ? error.errors.find((e) => e instanceof PipeworkError) : undefined;
    if (inner) return inner as PipeworkError;
    const message = cause?.message ?? String(error);
    return new PipeworkError(
      'UPSTREAM_FAILED',
      `The call to ${url.origin} failed: ${message}`,
      {},
      { cause: error },
    );
  }
}
