/**
 * A large form file uploaded before the form is submitted (docs/forms-and-lists.md): a staging property of
 * the user's own (`user/<uuid>/staging/<upload id>`, removed by its time to live when the form is never
 * submitted) gets the file as an attachment, chunk by chunk with `property.attachment.chunk.put`, so no
 * request carries more than one chunk and progress can be shown. Submitting the form moves it onto the
 * instance.
 */
import {
  FORM_UPLOAD_CHUNK_BYTES,
  STAGED_ATTACHMENT_NAME,
  STAGING_TTL_MINUTES,
  stagingKeyOf,
} from '../../../shared/property';
import { signedInUuid, type ApiClient } from '../api';

/** Uploads `file`; `progress` hears the bytes sent so far. Answers the staging key. */
export async function stageUpload(
  api: ApiClient,
  file: Blob,
  progress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const user = signedInUuid();
  if (!user) throw new Error('Sign in again to upload files.');
  const key = stagingKeyOf(user, crypto.randomUUID());
  await api.command(
    'property.schema.put',
    { key, type: 'application/json', ttl: STAGING_TTL_MINUTES, existStrategy: 'error', evalValue: false },
    { body: '{}', contentType: 'text/plain', signal },
  );
  progress(0);
  for (let at = 0; at < file.size; at += FORM_UPLOAD_CHUNK_BYTES) {
    const chunk = file.slice(at, at + FORM_UPLOAD_CHUNK_BYTES);
    await api.command(
      'property.attachment.chunk.put',
      { key, name: STAGED_ATTACHMENT_NAME },
      { body: chunk, contentType: 'application/octet-stream', signal },
    );
    progress(at + chunk.size);
  }
  return key;
}
