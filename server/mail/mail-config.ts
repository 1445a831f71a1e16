/** Mail settings: the SMTP server (a secret: its URL may hold a password) and the default sender. */
import { join } from 'node:path';
import { positiveIntFrom } from '../config-env';

export interface MailConfig {
  /** `PIPEWORK_SMTP_URL`, e.g. smtp://user:pass@mail.example.com:587; without it mail goes to the outbox. */
  smtpUrl?: string;
  /** Default sender address (`PIPEWORK_MAIL_FROM`). */
  from: string;
  /** Default sender name (`PIPEWORK_MAIL_FROM_NAME`). */
  fromName?: string;
  /** Longest wait for the SMTP server to connect, greet or answer (`PIPEWORK_SMTP_TIMEOUT_MILLIS`). */
  timeoutMillis: number;
  /** Folder of the `.eml` files written when no SMTP server is set. */
  outboxDir: string;
}

export function loadMailConfig(env: NodeJS.ProcessEnv, dataDir: string): MailConfig {
  return {
    smtpUrl: env.PIPEWORK_SMTP_URL || undefined,
    from: env.PIPEWORK_MAIL_FROM || 'pipework@localhost',
    fromName: env.PIPEWORK_MAIL_FROM_NAME || undefined,
    timeoutMillis: positiveIntFrom(env, 'PIPEWORK_SMTP_TIMEOUT_MILLIS', 30_000),
    outboxDir: join(dataDir, 'mail-outbox'),
  };
}
