/**
 * The large files of a form (docs/forms-and-lists.md): a file field whose `attachment` names a staging key
 * (`user/<uuid>/staging/<upload id>`, uploaded before in chunks) is checked here before anything is written,
 * and the value is rewritten as it will be stored: `content` and `attachment` name the attachment on the
 * instance (the real product's `content` holds the attachment's name), `contentLength` is the staged length.
 * The store then moves the staged attachments in the same transaction that stores the instance.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError, type ErrorCode } from '../../shared/errors';
import {
  MAX_FORM_FILE_BYTES,
  MAX_STAGED_FILES,
  STAGED_ATTACHMENT_NAME,
  checkAttachmentName,
  normalizePropertyType,
  parseStagingKey,
  type AttachmentAdoption,
  type AttachmentStore,
} from '../../shared/property';
import { DEFAULT_CONTENT_TYPE } from './attachment-chunks';

/** What the check needs of the property service. */
export interface StagedFileChecks {
  attachments: AttachmentStore;
  /** FORBIDDEN or CONFLICT (a lock) unless the principal may change `key`: the move deletes the staging property. */
  assertWritable(principal: Principal | null, key: string): Promise<unknown>;
}

/** The value to store and the attachments to move with it. */
export interface StagedFiles {
  value: unknown;
  adopt: AttachmentAdoption[];
}

interface StagedRef {
  path: string;
  field: Record<string, unknown>;
  key: string;
}

/** The error at its field, in the shape schema errors have, so a form shows it there. */
function fieldError(code: ErrorCode, path: string, message: string): PipeworkError {
  return new PipeworkError(code, message, {
    parameter: 'value',
    errors: [{ instancePath: path, keyword: 'attachment', params: {}, message }],
  });
}

/**
 * Every file object (with a `filename`) whose `attachment` is a key (it has a `/`; a stored attachment's name
 * never has one). Other objects are left alone, whatever fields an app's instances have.
 */
function stagedRefs(value: unknown, path: string, out: StagedRef[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => stagedRefs(item, `${path}/${i}`, out));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const field = value as Record<string, unknown>;
  if (
    typeof field.filename === 'string' &&
    typeof field.attachment === 'string' &&
    field.attachment.includes('/')
  ) {
    out.push({ path, field, key: field.attachment });
    return;
  }
  for (const [name, item] of Object.entries(field))
    stagedRefs(item, `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
}

/** The value as JSON when it may name staged uploads; undefined when it cannot (saves parsing every value). */
function parsedValue(value: unknown): unknown {
  // A copy: the staged fields are rewritten in place.
  if (typeof value !== 'string') return typeof value === 'object' ? structuredClone(value) : undefined;
  if (!value.includes('"attachment"')) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The attachment a field names, checked: the caller's own staging key, writable, staged, within the limit. */
async function adoptionOf(
  principal: Principal | null,
  ref: StagedRef,
  checks: StagedFileChecks,
): Promise<AttachmentAdoption> {
  const staging = parseStagingKey(ref.key);
  if (!staging)
    throw fieldError('PARAM_INVALID', ref.path, `'${ref.key.slice(0, 120)}' is not a staged upload.`);
  // Even an admin attaches only their own uploads: a form never takes someone else's file.
  if (!principal || staging.user !== principal.uuid)
    throw fieldError('FORBIDDEN', ref.path, 'Only your own staged uploads can be attached.');
  await checks.assertWritable(principal, ref.key);
  const staged = await checks.attachments.get(ref.key, STAGED_ATTACHMENT_NAME).catch(() => undefined);
  if (!staged)
    throw fieldError(
      'NOT_FOUND',
      ref.path,
      `The upload ${staging.uploadId} is gone (expired?): add the file again.`,
    );
  if (staged.length > MAX_FORM_FILE_BYTES)
    throw fieldError('PAYLOAD_TOO_LARGE', ref.path, `The file is larger than ${MAX_FORM_FILE_BYTES} bytes.`);
  const filename = ref.field.filename;
  let name: string;
  try {
    name = checkAttachmentName(filename);
  } catch {
    throw fieldError(
      'PARAM_INVALID',
      ref.path,
      'A staged file needs a filename usable as an attachment name.',
    );
  }
  let contentType: string;
  try {
    contentType = normalizePropertyType(ref.field.contentType) ?? DEFAULT_CONTENT_TYPE;
  } catch {
    contentType = DEFAULT_CONTENT_TYPE;
  }
  return { from: ref.key, name: STAGED_ATTACHMENT_NAME, as: name, length: staged.length, contentType };
}

/**
 * The staged files an instance value names, checked, and the value as it is stored; undefined when it names
 * none (the value is stored as it came).
 */
export async function stagedFilesOf(
  principal: Principal | null,
  rawValue: unknown,
  checks: StagedFileChecks,
): Promise<StagedFiles | undefined> {
  const value = parsedValue(rawValue);
  const refs: StagedRef[] = [];
  stagedRefs(value, '', refs);
  if (refs.length === 0) return undefined;
  if (refs.length > MAX_STAGED_FILES)
    throw fieldError('PARAM_INVALID', '', `At most ${MAX_STAGED_FILES} staged files per instance.`);
  const adopt: AttachmentAdoption[] = [];
  for (const ref of refs) {
    const adoption = await adoptionOf(principal, ref, checks);
    if (adopt.some((a) => a.from === adoption.from))
      throw fieldError('PARAM_INVALID', ref.path, 'The same upload is named twice.');
    if (adopt.some((a) => a.as === adoption.as))
      throw fieldError('PARAM_INVALID', ref.path, `Two files are named ${adoption.as}.`);
    adopt.push(adoption);
    const { contentEncoding: _inline, ...rest } = ref.field;
    Object.keys(ref.field).forEach((k) => delete ref.field[k]);
    Object.assign(ref.field, rest, {
      contentType: adoption.contentType,
      contentLength: adoption.length,
      content: adoption.as,
      attachment: adoption.as,
    });
  }
  return { value, adopt };
}
