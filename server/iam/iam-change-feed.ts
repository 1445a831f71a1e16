/**
 * What one instance tells the others when IAM state that they keep in memory changed: the principal cache,
 * the role names, remembered credentials, revoked sessions and login-failure counts. The database stays the
 * truth; these only say "re-read". On one SQLite database there is nobody to tell (`localIamChangeFeed`);
 * on PostgreSQL the feed is a notification channel (`postgresIamChangeFeed`).
 */
export type IamChange =
  /** Roles, groups, tenants or memberships changed: every cached principal may be stale. */
  | { kind: 'directory' }
  /** One user's identity or password changed. */
  | { kind: 'user'; uuid: string }
  /** A login session (refresh-token family) was revoked: its access tokens are refused too. */
  | { kind: 'revoked'; familyId: string }
  /** A name's failed-login count or lock changed. */
  | { kind: 'login-failures'; username: string };

export interface IamChangeFeed {
  /** Tells the other instances (not this one: the caller has applied the change itself). */
  publish(change: IamChange): void;
  /**
   * Receives the other instances' changes; `resync` runs when some may have been missed (a lost connection),
   * and the receiver then re-reads everything it keeps.
   */
  subscribe(receive: (change: IamChange) => void, resync: () => void): void;
  close(): void;
}

/** One instance alone: nothing to tell. */
export const localIamChangeFeed = (): IamChangeFeed => ({
  publish() {},
  subscribe() {},
  close() {},
});

/** The notification transport the PostgreSQL feed needs (`server/db/postgres-notifications.ts`). */
export interface NotificationChannel {
  listen(channel: string, handler: (payload: string) => void, onResync?: () => void): () => void;
  notify(channel: string, payload: string): Promise<void>;
}

export const IAM_CHANNEL = 'pipework_iam';

/** Changes as notifications on one channel; each carries its instance id so an instance skips its own. */
export function postgresIamChangeFeed(
  notifications: NotificationChannel,
  instanceId: string,
  onError: (error: unknown) => void,
): IamChangeFeed {
  let stop: (() => void) | undefined;
  return {
    publish(change) {
      notifications.notify(IAM_CHANNEL, JSON.stringify({ from: instanceId, change })).catch(onError);
    },
    subscribe(receive, resync) {
      stop = notifications.listen(
        IAM_CHANNEL,
        (payload) => {
          const message = JSON.parse(payload) as { from: string; change: IamChange };
          if (message.from !== instanceId) receive(message.change);
        },
        resync,
      );
    },
    close() {
      stop?.();
    },
  };
}
