/**
 * Calls an endpoint of `shared/api` with the signed-in user's client: its URL, method and JSON body, typed.
 * An answer that is not 2xx throws the contract's `ApiError`; a failed fetch throws as fetch does.
 */
import {
  endpointUrl,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '../../../shared/api';
import type { ApiClient } from './api-client';
import { apiErrorOf } from './api-error';

export interface EndpointRequest<E> {
  params?: ParamsOf<E>;
  query?: Partial<QueryOf<E>>;
  body?: BodyOf<E>;
  signal?: AbortSignal;
}

export async function callEndpoint<E extends Endpoint<unknown, unknown, unknown, unknown>>(
  api: ApiClient,
  endpoint: E,
  request: EndpointRequest<E> = {},
): Promise<ResponseOf<E>> {
  const url = endpointUrl(endpoint, request.params ?? {}, request.query);
  const init: RequestInit = { method: endpoint.method, signal: request.signal };
  if (request.body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(request.body);
  }
  const response = await api.fetch(url, init);
  if (!response.ok) throw await apiErrorOf(response);
  return (await response.json()) as ResponseOf<E>;
}
