/**
 * A form's file fields (docs/forms-and-lists.md): small files go inline in the instance, larger ones are
 * uploaded first, in chunks, to a staging property of the user's own and moved onto the instance as it is
 * stored. Shared by the workbench (which uploads) and the server (which moves).
 */

/** Files up to this size are stored inline (base64) as before: the corpus apps' listeners read `content`. */
export const FORM_INLINE_FILE_BYTES = 1024 * 1024;

/** The largest file a form takes (inline or as an attachment); the server refuses a larger staged upload. */
export const MAX_FORM_FILE_BYTES = 100 * 1024 * 1024;

/** Bytes per `property.attachment.chunk.put` call of an upload (well within the command body limit). */
export const FORM_UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** The name of the attachment a staging property holds. */
export const STAGED_ATTACHMENT_NAME = 'file';

/** Minutes a staging property lives when its instance is never stored: the time-to-live job removes it. */
export const STAGING_TTL_MINUTES = 24 * 60;

/** At most this many staged files per stored instance. */
export const MAX_STAGED_FILES = 20;

/** An upload id: letters, digits, `-` and `_` (a uuid), so a staging key can never reach another folder. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `user/<uuid>/staging/<upload id>`: where a user's upload waits for its instance. */
export function stagingKeyOf(userUuid: string, uploadId: string): string {
  return `user/${userUuid}/staging/${uploadId}`;
}

/** The user and upload id of a staging key, or undefined when `key` is not shaped as one. */
export function parseStagingKey(key: string): { user: string; uploadId: string } | undefined {
  const parts = key.split('/');
  if (parts.length !== 4 || parts[0] !== 'user' || parts[2] !== 'staging') return undefined;
  const [, user, , uploadId] = parts as [string, string, string, string];
  return UPLOAD_ID.test(user) && UPLOAD_ID.test(uploadId) ? { user, uploadId } : undefined;
}

/** A file field's value: inline (`content`, base64) or naming an attachment. */
export interface FormFileValue {
  filename: string;
  contentType?: string;
  contentLength?: number;
  contentEncoding?: string;
  /** Inline: the base64 bytes. Stored as an attachment: its name on the instance (as the real product). */
  content?: string;
  /** Pipework's marker of a file kept as an attachment: a staging key when submitted, then its name. */
  attachment?: string;
}
