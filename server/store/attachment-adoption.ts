/**
 * The SQL-independent rules of moving staged attachments onto a property as it is saved (`SaveOptions.adopt`),
 * shared by the SQLite and PostgreSQL stores: what is checked inside the transaction, and its errors.
 */
import { PipeworkError } from '../../shared/errors';
import type { AttachmentAdoption } from '../../shared/property';

export function stagedPropertyMissing(adoption: AttachmentAdoption): PipeworkError {
  return new PipeworkError('NOT_FOUND', `The staged upload '${adoption.from}' does not exist (expired?).`, {
    key: adoption.from,
  });
}

export function stagedAttachmentMissing(adoption: AttachmentAdoption): PipeworkError {
  return new PipeworkError(
    'NOT_FOUND',
    `The staged upload '${adoption.from}' has no attachment '${adoption.name}'.`,
    { key: adoption.from, name: adoption.name },
  );
}

/** CONFLICT when the staged attachment is no longer as long as the caller checked (written to since). */
export function checkStagedLength(adoption: AttachmentAdoption, length: number): void {
  if (length !== adoption.length) {
    throw new PipeworkError(
      'CONFLICT',
      `The staged upload '${adoption.from}' changed while it was being attached (${length} bytes, not ${adoption.length}).`,
      { key: adoption.from },
    );
  }
}

/** The staging properties to delete after the moves, each once. */
export function stagingKeysOf(adoptions: readonly AttachmentAdoption[]): string[] {
  return [...new Set(adoptions.map((a) => a.from))];
}
