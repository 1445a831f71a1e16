/** Mail settings: the SMTP server (a secret: its URL may hold a password) and the default sender. */
import { join } from 'node:path';

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

function timeoutFrom(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 30_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`PIPEWORK_SMTP_TIMEOUT_MILLIS must be a positive integer, got '${raw}'`);
  return n;
}

export function loadMailConfig(env: NodeJS.ProcessEnv, dataDir: string): MailConfig {
  return {
    smtpUrl: env.PIPEWORK_SMTP_URL || undefined,
    from: env.PIPEWORK_MAIL_FROM || 'pipework@localhost',
    fromName: env.PIPEWORK_MAIL_FROM_NAME || undefined,
    timeoutMillis: timeoutFrom(env.PIPEWORK_SMTP_TIMEOUT_MILLIS),
    outboxDir: join(dataDir, 'mail-outbox'),
  };
}
