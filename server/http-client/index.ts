/** Outbound HTTP for the http.* commands: one guarded client per configuration. */
import { loadHttpClientConfig, type HttpClientConfig } from './http-client-config';
import { OutboundHttp } from './outbound-request';

export { addressKind, AddressPolicy, type AddressKind } from './address-policy';
export { loadHttpClientConfig, type HttpClientConfig } from './http-client-config';
export { OutboundHttp, type OutboundRequest, type OutboundResponse } from './outbound-request';

const clients = new WeakMap<HttpClientConfig, OutboundHttp>();

/** The settings when a server was built without them (some tests): the defaults, one object for every call. */
export const DEFAULT_HTTP_CLIENT_CONFIG: HttpClientConfig = loadHttpClientConfig({});

/** The client of a server's configuration (made once, so its keep-alive connections are shared). */
export function outboundHttpFor(config: HttpClientConfig | undefined): OutboundHttp {
  const key = config ?? DEFAULT_HTTP_CLIENT_CONFIG;
  let client = clients.get(key);
  if (!client) {
    client = new OutboundHttp(key);
    clients.set(key, client);
  }
  return client;
}
