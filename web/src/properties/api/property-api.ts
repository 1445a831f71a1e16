/** The property commands the tree uses, over the workbench's API client (values travel as bodies, never evaluated). */
import type { ApiClient } from '../../api';
import type { Attachment, Property } from './property-types';

/** Values are sent as text with their type given, so they are stored exactly as typed. */
const TEXT = 'text/plain; charset=utf-8';

export interface ChildrenPage {
  children: string[];
  next: string | null;
}

/** One page of a folder's level (sub-folders end in `/`); `next` continues it, null at the end. */
export function folderPage(
  api: ApiClient,
  folder: string | null,
  after: string | undefined,
  limit: number,
  signal?: AbortSignal,
) {
  const params: Record<string, string | number> = { limit };
  if (folder !== null) params.pattern = `${folder}/`;
  if (after !== undefined) params.after = after;
  return api.command<ChildrenPage>('property.keys.children.page', params, { signal });
}

export function matchingKeys(api: ApiClient, pattern: string, signal?: AbortSignal) {
  return api.command<string[]>('property.keys', { pattern }, { signal });
}

export function getProperty(api: ApiClient, key: string, signal?: AbortSignal) {
  return api.command<Property>('property.get', { key }, { signal });
}

/** Creates a property; PROPERTY_EXISTS when the key is taken. */
export async function createProperty(api: ApiClient, key: string, type: string, value: string) {
  const answer = await api.command<{ property: Property }>(
    'property.schema.put',
    { key, type, existStrategy: 'error' },
    { method: 'POST', body: value, contentType: TEXT },
  );
  return answer.property;
}

/** Saves a value only if the property is still at `version`: CONFLICT otherwise, nothing overwritten. */
export function saveProperty(api: ApiClient, key: string, type: string, value: string, version: number) {
  return api.command<Property>(
    'property.put',
    { key, type, version },
    { method: 'POST', body: value, contentType: TEXT },
  );
}

export function moveProperty(api: ApiClient, key: string, to: string) {
  return api.command<Property>('property.move', { key, to }, { method: 'POST' });
}

export function deleteProperty(api: ApiClient, key: string) {
  return api.command<string[]>('property.delete', { key }, { method: 'POST' });
}

export function listAttachments(api: ApiClient, key: string, signal?: AbortSignal) {
  return api.command<Attachment[]>('property.attachment.list', { key }, { signal });
}

/** The attachment's bytes, fetched with the session's credentials (a plain link could not send them). */
export async function downloadAttachment(api: ApiClient, key: string, name: string): Promise<Blob> {
  const query = new URLSearchParams({ key, name });
  const response = await api.fetch(`/api/v3/command/property.attachment.content?${query}`);
  if (!response.ok) throw new Error(`Download failed (HTTP ${response.status}).`);
  return response.blob();
}

/** Uploads a file as an attachment of `key` (replacing one of the same name): the bytes as the body, streamed. */
export async function uploadAttachment(api: ApiClient, key: string, file: File): Promise<void> {
  const contentType = file.type || 'application/octet-stream';
  const query = new URLSearchParams({ key, name: file.name, contentType });
  const response = await api.fetch(`/api/v3/command/property.attachment.put?${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: file,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { value?: { message?: string } } | null;
    throw new Error(answer?.value?.message ?? `Upload of ${file.name} failed (HTTP ${response.status}).`);
  }
}

export function deleteAttachment(api: ApiClient, key: string, name: string) {
  return api.command('property.attachment.delete', { key, name }, { method: 'POST' });
}
