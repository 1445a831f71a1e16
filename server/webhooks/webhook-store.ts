/**
 * Webhooks through the SQL port (SQLite or PostgreSQL, so every instance answers every webhook). A webhook's
 * token is 256 random bits, handed out once when it is created; only its SHA-256 is stored, and a call finds
 * its webhook by that digest (an index lookup: no comparison of secrets byte by byte in our code).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { migrateModule, type SqlPort } from '../db/sql';
import { WEBHOOK_MIGRATIONS } from './webhook-migrations';

export const PAYLOAD_TYPES = ['raw', 'base64', 'ignore'] as const;
export type PayloadType = (typeof PAYLOAD_TYPES)[number];

/** The real product's default and maximum body size. */
export const DEFAULT_MAX_PAYLOAD = 512_000;
export const MAX_PAYLOAD = 4_194_304;

export interface Webhook {
  uuid: string;
  eventKey: string;
  /** The stored pipeline a call runs. */
  pipeline: string;
  payloadType: PayloadType;
  maxPayloadLength: number;
  /** Calls per minute per instance; past it 429. */
  ratePerMinute: number;
  /** The name of the creator's secret (`secret-text`) that signed calls are checked with; null: token only. */
  secretName: string | null;
  /** Who created it: runs are theirs, bound by the pipeline's author. */
  createdBy: string;
  created: number;
}

interface Row {
  uuid: string;
  event_key: string;
  pipeline_key: string;
  payload_type: string;
  max_payload_length: number;
  rate_per_minute: number;
  secret_name: string | null;
  created_by: string;
  created: number | string;
}

const COLUMNS =
  'uuid, event_key, pipeline_key, payload_type, max_payload_length, rate_per_minute, secret_name, created_by, created';

function toWebhook(row: Row): Webhook {
  return {
    uuid: row.uuid,
    eventKey: row.event_key,
    pipeline: row.pipeline_key,
    payloadType: row.payload_type as PayloadType,
    maxPayloadLength: Number(row.max_payload_length),
    ratePerMinute: Number(row.rate_per_minute),
    secretName: row.secret_name,
    createdBy: row.created_by,
    created: Number(row.created),
  };
}

/** The digest a token is stored and found by. */
export function webhookTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class WebhookStore {
  constructor(private readonly sql: SqlPort) {}

  /** Creates a webhook; the token is in the answer only. */
  async create(fields: Omit<Webhook, 'uuid' | 'created'>, now: number): Promise<Webhook & { token: string }> {
    const token = randomBytes(32).toString('base64url');
    const webhook: Webhook = { ...fields, uuid: randomUUID(), created: now };
    await this.sql.run(
      `INSERT INTO webhook (uuid, token_hash, event_key, pipeline_key, payload_type, max_payload_length,
       rate_per_minute, created_by, created, secret_name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        webhook.uuid,
        webhookTokenDigest(token),
        webhook.eventKey,
        webhook.pipeline,
        webhook.payloadType,
        webhook.maxPayloadLength,
        webhook.ratePerMinute,
        webhook.createdBy,
        now,
        webhook.secretName,
      ],
    );
    return { ...webhook, token };
  }

  /** Changes a webhook's settings (never its uuid or token). */
  async update(
    uuid: string,
    fields: Pick<
      Webhook,
      'eventKey' | 'pipeline' | 'payloadType' | 'maxPayloadLength' | 'ratePerMinute' | 'secretName'
    >,
  ): Promise<Webhook | undefined> {
    await this.sql.run(
      `UPDATE webhook SET event_key = $2, pipeline_key = $3, payload_type = $4, max_payload_length = $5,
       rate_per_minute = $6, secret_name = $7 WHERE uuid = $1`,
      [
        uuid,
        fields.eventKey,
        fields.pipeline,
        fields.payloadType,
        fields.maxPayloadLength,
        fields.ratePerMinute,
        fields.secretName,
      ],
    );
    return this.get(uuid);
  }

  async get(uuid: string): Promise<Webhook | undefined> {
    const row = await this.sql.get<Row>(`SELECT ${COLUMNS} FROM webhook WHERE uuid = $1`, [uuid]);
    return row && toWebhook(row);
  }

  /** The webhook a token opens, or undefined (unknown or revoked). */
  async byToken(token: string): Promise<Webhook | undefined> {
    const row = await this.sql.get<Row>(`SELECT ${COLUMNS} FROM webhook WHERE token_hash = $1`, [
      webhookTokenDigest(token),
    ]);
    return row && toWebhook(row);
  }

  async list(): Promise<Webhook[]> {
    const rows = await this.sql.all<Row>(`SELECT ${COLUMNS} FROM webhook ORDER BY event_key, uuid`);
    return rows.map(toWebhook);
  }

  /** Deletes a webhook: its token opens nothing from now on. */
  async delete(uuid: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM webhook WHERE uuid = $1', [uuid])).changes === 1;
  }
}

/** Creates or upgrades the webhook table and returns its store. */
export async function openWebhookStore(sql: SqlPort): Promise<WebhookStore> {
  await migrateModule(sql, 'webhooks', WEBHOOK_MIGRATIONS);
  return new WebhookStore(sql);
}
