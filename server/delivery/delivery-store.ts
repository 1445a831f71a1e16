/** The delivery tables, written once for SQLite and PostgreSQL through the SQL port. */
import { all, get, run, type SqlPort, type SqlSteps } from '../db/sql';
import {
  PRIVACY_LEVELS,
  type Delivery,
  type DeliveryAttachmentInfo,
  type DeliveryRecipient,
  type DeliveryStatus,
  type PrivacyLevel,
} from './delivery-records';

interface DeliveryRow {
  uuid: string;
  sender_uuid: string;
  sender_name: string;
  sender_email: string | null;
  subject: string;
  message: string;
  privacy_level: number;
  status: string;
  notify_sender: number | boolean;
  delete_after: number | string;
  encryption: string | null;
  created: number | string;
  updated: number | string;
}

interface RecipientRow {
  email: string;
  locale: string | null;
  sent: number | string | null;
  downloads: number;
  last_download: number | string | null;
}

/** A recipient found by its token: what the download page needs. */
export interface TokenHolder {
  deliveryUuid: string;
  email: string;
  passwordHash: string | null;
  wrappedKey: string | null;
}

export interface NewAttachment {
  name: string;
  mimeType: string;
  content: Uint8Array;
}

/** The fields of a delivery that are set on create and update. */
export interface DeliveryFields {
  subject: string;
  message: string;
  privacyLevel: PrivacyLevel;
  notifySender: boolean;
  deleteAfter: number;
}

const millis = (v: number | string | null): number | null => (v === null ? null : Number(v));
const DELIVERY_COLUMNS = `uuid, sender_uuid, sender_name, sender_email, subject, message, privacy_level, status,
  notify_sender, delete_after, encryption, created, updated`;

export class DeliveryStore {
  constructor(private readonly sql: SqlPort) {}

  private async assemble(row: DeliveryRow): Promise<Delivery> {
    const recipients = await this.sql.all<RecipientRow>(
      'SELECT email, locale, sent, downloads, last_download FROM delivery_recipient WHERE delivery_uuid = $1 ORDER BY email',
      [row.uuid],
    );
    const attachments = await this.sql.all<DeliveryAttachmentInfo & { length: number | string }>(
      'SELECT position, name, mime_type AS "mimeType", length FROM delivery_attachment WHERE delivery_uuid = $1 ORDER BY position',
      [row.uuid],
    );
    const level = row.privacy_level as PrivacyLevel;
    return {
      uuid: row.uuid,
      senderUuid: row.sender_uuid,
      senderName: row.sender_name,
      senderEmail: row.sender_email,
      subject: row.subject,
      message: row.message,
      privacyLevel: level,
      privacyLevelName: PRIVACY_LEVELS[level - 1]!,
      status: row.status as DeliveryStatus,
      notifySender: Boolean(row.notify_sender),
      deleteAfter: Number(row.delete_after),
      encrypted: row.encryption !== null,
      created: Number(row.created),
      updated: Number(row.updated),
      recipients: recipients.map((r): DeliveryRecipient => ({
        email: r.email,
        locale: r.locale,
        sent: millis(r.sent),
        downloads: Number(r.downloads),
        lastDownload: millis(r.last_download),
      })),
      attachments: attachments.map((a) => ({ ...a, position: Number(a.position), length: Number(a.length) })),
    };
  }

  async get(uuid: string): Promise<Delivery | undefined> {
    const row = await this.sql.get<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM delivery WHERE uuid = $1`, [
      uuid,
    ]);
    return row ? this.assemble(row) : undefined;
  }

  /** A sender's deliveries, newest first (at most `limit`). */
  async bySender(senderUuid: string, limit: number): Promise<Delivery[]> {
    const rows = await this.sql.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM delivery WHERE sender_uuid = $1 ORDER BY created DESC, uuid LIMIT $2`,
      [senderUuid, limit],
    );
    return Promise.all(rows.map((r) => this.assemble(r)));
  }

  /** The deliveries sent to an address, newest first (at most `limit`). */
  async byRecipient(email: string, limit: number): Promise<Delivery[]> {
    const rows = await this.sql.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS.split(',')
        .map((c) => `d.${c.trim()}`)
        .join(', ')} FROM delivery d
        JOIN delivery_recipient r ON r.delivery_uuid = d.uuid
        WHERE r.email = $1 AND r.sent IS NOT NULL ORDER BY d.created DESC, d.uuid LIMIT $2`,
      [email.toLowerCase(), limit],
    );
    return Promise.all(rows.map((r) => this.assemble(r)));
  }

  /** Stores a new delivery with its recipients and attachments, all or nothing. */
  async insert(
    delivery: { uuid: string; senderUuid: string; senderName: string; senderEmail: string | null },
    fields: DeliveryFields,
    recipients: { email: string; locale: string | null }[],
    attachments: NewAttachment[],
  ): Promise<void> {
    const now = Date.now();
    await this.sql.transaction(function* () {
      yield* run(
        `INSERT INTO delivery (${DELIVERY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, 'DRAFT', $8, $9, NULL, $10, $10)`,
        [
          delivery.uuid,
          delivery.senderUuid,
          delivery.senderName,
          delivery.senderEmail,
          fields.subject,
          fields.message,
          fields.privacyLevel,
          fields.notifySender ? 1 : 0,
          fields.deleteAfter,
          now,
        ],
      );
      for (const r of recipients) yield* insertRecipient(delivery.uuid, r);
      for (const [i, a] of attachments.entries()) yield* insertAttachment(delivery.uuid, i, a);
    });
  }

  /** Changes what is given; `recipients` / `attachments` replace the lists when given. */
  async update(
    uuid: string,
    fields: Partial<DeliveryFields>,
    recipients?: { email: string; locale: string | null }[],
    attachments?: NewAttachment[],
  ): Promise<void> {
    const columns: Record<keyof DeliveryFields, string> = {
      subject: 'subject',
      message: 'message',
      privacyLevel: 'privacy_level',
      notifySender: 'notify_sender',
      deleteAfter: 'delete_after',
    };
    const sets: string[] = [];
    const params: unknown[] = [uuid, Date.now()];
    for (const [field, column] of Object.entries(columns) as [keyof DeliveryFields, string][]) {
      if (fields[field] === undefined) continue;
      const value = fields[field];
      params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
      sets.push(`${column} = $${params.length}`);
    }
    await this.sql.transaction(function* () {
      yield* run(`UPDATE delivery SET ${[...sets, 'updated = $2'].join(', ')} WHERE uuid = $1`, params);
      if (recipients) {
        yield* run('DELETE FROM delivery_recipient WHERE delivery_uuid = $1', [uuid]);
        for (const r of recipients) yield* insertRecipient(uuid, r);
      }
      if (attachments) {
        yield* run('DELETE FROM delivery_attachment WHERE delivery_uuid = $1', [uuid]);
        for (const [i, a] of attachments.entries()) yield* insertAttachment(uuid, i, a);
      }
    });
  }

  async addRecipient(uuid: string, recipient: { email: string; locale: string | null }): Promise<void> {
    await this.sql.transaction(function* () {
      const known = yield* get(
        'SELECT 1 AS one FROM delivery_recipient WHERE delivery_uuid = $1 AND email = $2',
        [uuid, recipient.email],
      );
      if (known)
        yield* run('UPDATE delivery_recipient SET locale = $3 WHERE delivery_uuid = $1 AND email = $2', [
          uuid,
          recipient.email,
          recipient.locale,
        ]);
      else yield* insertRecipient(uuid, recipient);
      yield* run('UPDATE delivery SET updated = $2 WHERE uuid = $1', [uuid, Date.now()]);
    });
  }

  async addAttachment(uuid: string, attachment: NewAttachment): Promise<void> {
    await this.sql.transaction(function* () {
      const last = yield* get<{ n: number | string | null }>(
        'SELECT MAX(position) AS n FROM delivery_attachment WHERE delivery_uuid = $1',
        [uuid],
      );
      const position = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
      yield* insertAttachment(uuid, position, attachment);
      yield* run('UPDATE delivery SET updated = $2 WHERE uuid = $1', [uuid, Date.now()]);
    });
  }

  /** Total bytes of a delivery's attachments. */
  async attachmentBytes(uuid: string): Promise<number> {
    const row = await this.sql.get<{ n: number | string | null }>(
      'SELECT SUM(length) AS n FROM delivery_attachment WHERE delivery_uuid = $1',
      [uuid],
    );
    return Number(row?.n ?? 0);
  }

  async setStatus(uuid: string, status: DeliveryStatus): Promise<void> {
    await this.sql.run('UPDATE delivery SET status = $2, updated = $3 WHERE uuid = $1', [
      uuid,
      status,
      Date.now(),
    ]);
  }

  /**
   * Encrypts the stored content in place, in one transaction: each attachment's bytes, and (level 4) the
   * message, through `seal`.
   */
  async encryptContent(uuid: string, seal: (plain: Uint8Array) => Buffer, message: boolean): Promise<void> {
    await this.sql.transaction(function* () {
      const rows = yield* all<{ position: number; content: Uint8Array }>(
        'SELECT position, content FROM delivery_attachment WHERE delivery_uuid = $1',
        [uuid],
      );
      for (const row of rows)
        yield* run('UPDATE delivery_attachment SET content = $3 WHERE delivery_uuid = $1 AND position = $2', [
          uuid,
          row.position,
          seal(row.content),
        ]);
      if (message) {
        const current = yield* get<{ message: string }>('SELECT message FROM delivery WHERE uuid = $1', [
          uuid,
        ]);
        yield* run('UPDATE delivery SET message = $2 WHERE uuid = $1', [
          uuid,
          seal(Buffer.from(current?.message ?? '', 'utf8')).toString('base64'),
        ]);
      }
      yield* run(`UPDATE delivery SET encryption = 'A256GCM' WHERE uuid = $1`, [uuid]);
    });
  }

  /** Records that the link went to a recipient, with the hashes of its new secrets. */
  async recordSent(
    uuid: string,
    email: string,
    secrets: { tokenHash: string; passwordHash: string | null; wrappedKey: string | null },
  ): Promise<void> {
    await this.sql.run(
      `UPDATE delivery_recipient SET token_hash = $3, password_hash = $4, wrapped_key = $5, sent = $6
        WHERE delivery_uuid = $1 AND email = $2`,
      [uuid, email, secrets.tokenHash, secrets.passwordHash, secrets.wrappedKey, Date.now()],
    );
  }

  async byToken(tokenHash: string): Promise<TokenHolder | undefined> {
    const row = await this.sql.get<{
      delivery_uuid: string;
      email: string;
      password_hash: string | null;
      wrapped_key: string | null;
    }>(
      'SELECT delivery_uuid, email, password_hash, wrapped_key FROM delivery_recipient WHERE token_hash = $1',
      [tokenHash],
    );
    return row
      ? {
          deliveryUuid: row.delivery_uuid,
          email: row.email,
          passwordHash: row.password_hash,
          wrappedKey: row.wrapped_key,
        }
      : undefined;
  }

  async attachmentContent(uuid: string, position: number): Promise<Uint8Array | undefined> {
    const row = await this.sql.get<{ content: Uint8Array }>(
      'SELECT content FROM delivery_attachment WHERE delivery_uuid = $1 AND position = $2',
      [uuid, position],
    );
    return row?.content;
  }

  /** Counts a download; answers the recipient's count before it. */
  async countDownload(uuid: string, email: string): Promise<number> {
    return this.sql.transaction(function* () {
      const row = yield* get<{ downloads: number }>(
        'SELECT downloads FROM delivery_recipient WHERE delivery_uuid = $1 AND email = $2',
        [uuid, email],
      );
      yield* run(
        'UPDATE delivery_recipient SET downloads = downloads + 1, last_download = $3 WHERE delivery_uuid = $1 AND email = $2',
        [uuid, email, Date.now()],
      );
      return Number(row?.downloads ?? 0);
    });
  }

  async delete(uuid: string): Promise<boolean> {
    return this.sql.transaction(() => deleteSteps(uuid));
  }

  /** Deletes every delivery whose time is up, with its bytes; answers how many. */
  async deleteExpired(now: number): Promise<number> {
    const rows = await this.sql.all<{ uuid: string }>(
      'SELECT uuid FROM delivery WHERE delete_after > 0 AND delete_after <= $1',
      [now],
    );
    let count = 0;
    for (const { uuid } of rows) if (await this.delete(uuid)) count++;
    return count;
  }
}

function* insertRecipient(uuid: string, r: { email: string; locale: string | null }): SqlSteps<void> {
  yield* run('INSERT INTO delivery_recipient (delivery_uuid, email, locale) VALUES ($1, $2, $3)', [
    uuid,
    r.email,
    r.locale,
  ]);
}

function* insertAttachment(uuid: string, position: number, a: NewAttachment): SqlSteps<void> {
  yield* run(
    'INSERT INTO delivery_attachment (delivery_uuid, position, name, mime_type, length, content) VALUES ($1, $2, $3, $4, $5, $6)',
    [uuid, position, a.name, a.mimeType, a.content.byteLength, Buffer.from(a.content)],
  );
}

function* deleteSteps(uuid: string): SqlSteps<boolean> {
  yield* run('DELETE FROM delivery_attachment WHERE delivery_uuid = $1', [uuid]);
  yield* run('DELETE FROM delivery_recipient WHERE delivery_uuid = $1', [uuid]);
  const { changes } = yield* run('DELETE FROM delivery WHERE uuid = $1', [uuid]);
  return changes > 0;
}
