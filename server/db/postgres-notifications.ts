/**
 * PostgreSQL LISTEN/NOTIFY for one server instance: LISTEN needs a connection of its own (a pooled one goes
 * back to the pool and its subscriptions with it), so one dedicated `pg.Client` carries every channel the
 * instance follows. NOTIFY goes through the pool. When the listening connection drops, notifications sent
 * meanwhile are lost: it reconnects with backoff, listens again and calls every `onResync`, so consumers
 * re-read what they may have missed (an outbox from a cursor, a cache from scratch).
 */
import type pg from 'pg';
import type { ClientConfig, Notification, Pool } from 'pg';
import { pgDriver } from './pg-driver';
import type { Logger } from '../logging/logger';

export type NotificationsLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface PostgresNotificationsOptions {
  /** First wait before reconnecting, doubled per failed attempt up to `maxBackoffMs`. Default 100 ms. */
  minBackoffMs?: number;
  /** Default 5 s. */
  maxBackoffMs?: number;
}

interface Subscription {
  handler: (payload: string) => void;
  onResync?: () => void;
}

export class PostgresNotifications {
  private readonly channels = new Map<string, Set<Subscription>>();
  private client: pg.Client | undefined;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  /** Settles when the LISTEN/UNLISTEN commands sent so far have run (or failed with the connection). */
  private pending: Promise<unknown> = Promise.resolve();
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;

  private constructor(
    private readonly pool: Pool,
    private readonly connection: ClientConfig,
    private readonly logger: NotificationsLogger,
    options: PostgresNotificationsOptions,
  ) {
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  /**
   * Opens the listening connection (`connection`: the same settings as the pool's, e.g.
   * `{ connectionString }`); fails when the database cannot be reached at start.
   */
  static async start(
    pool: Pool,
    connection: ClientConfig,
    logger: NotificationsLogger,
    options: PostgresNotificationsOptions = {},
  ): Promise<PostgresNotifications> {
    const notifications = new PostgresNotifications(pool, connection, logger, options);
    await notifications.connect();
    return notifications;
  }

  /**
   * Calls `handler` with each notification's payload on `channel`. `onResync` is called once the LISTEN is in
   * effect and again after every reconnect: from then on nothing is missed, so re-read what may have changed
   * before. Returns the function that stops listening.
   */
  listen(channel: string, handler: (payload: string) => void, onResync?: () => void): () => void {
    if (this.closed) throw new Error('PostgresNotifications is closed');
    const subscription: Subscription = { handler, onResync };
    let subscriptions = this.channels.get(channel);
    const first = !subscriptions;
    if (!subscriptions) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    const client = this.client;
    if (client) {
      const listening = first
        ? this.command(client, `LISTEN ${client.escapeIdentifier(channel)}`)
        : this.pending;
      void listening.then((ok) => {
        if (ok !== false && this.client === client && subscriptions.has(subscription)) {
          this.resync([subscription]);
        }
      });
    }
    return () => this.unlisten(channel, subscription);
  }

  /** Sends `payload` (at most 8,000 bytes) to every instance listening on `channel`, through the pool. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /** Resolves when every LISTEN asked for so far is in effect on the current connection (tests, start-up). */
  async ready(): Promise<void> {
    await this.pending;
  }

  /** The backend pid of the listening connection, while connected (for diagnostics and tests). */
  get listenerPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    this.channels.clear();
    await client?.end().catch(() => undefined);
  }

  private unlisten(channel: string, subscription: Subscription): void {
    const subscriptions = this.channels.get(channel);
    if (!subscriptions?.delete(subscription) || subscriptions.size > 0) return;
    this.channels.delete(channel);
    const client = this.client;
    if (client) void this.command(client, `UNLISTEN ${client.escapeIdentifier(channel)}`);
  }

  /** Runs a LISTEN/UNLISTEN after the ones before it; resolves false when the connection failed. */
  private command(client: pg.Client, sql: string): Promise<boolean> {
    const run = this.pending.then(() =>
      client.query(sql).then(
        () => true,
        () => false, // the connection dropped: the reconnect listens again
      ),
    );
    this.pending = run;
    return run;
  }

  /** Connects, listens on every channel, then asks every subscriber to resync. */
  private async connect(): Promise<void> {
    const client = new (pgDriver().Client)(this.connection);
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client));
    client.on('notification', (message) => this.deliver(message));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) {
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.pending = Promise.resolve();
    this.attempts = 0;
    this.resync([...this.channels.values()].flatMap((set) => [...set]));
  }

  private deliver(message: Notification): void {
    for (const subscription of [...(this.channels.get(message.channel) ?? [])]) {
      try {
        subscription.handler(message.payload ?? '');
      } catch (error) {
        this.logger.error({ err: error, channel: message.channel }, 'notification handler failed');
      }
    }
  }

  private resync(subscriptions: Subscription[]): void {
    for (const subscription of subscriptions) {
      try {
        subscription.onResync?.();
      } catch (error) {
        this.logger.error({ err: error }, 'notification resync failed');
      }
    }
  }

  /** The listening connection ended or failed: forget it and reconnect (once per connection). */
  private dropped(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn({ err: error }, 'PostgreSQL listening connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const wait = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.attempts);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().then(
        () => {
          if (!this.closed) this.logger.info({ channels: this.channels.size }, 'PostgreSQL listening again');
        },
        (error: unknown) => {
          this.logger.warn({ err: error, attempt: this.attempts }, 'PostgreSQL reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, wait);
    this.reconnectTimer.unref();
  }
}
