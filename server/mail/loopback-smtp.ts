/** For tests: a real SMTP server (`smtp-server`) on a free loopback port that parses what it receives (`mailparser`). */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface LoopbackSmtp {
  url: string;
  /** Every message received, parsed, with the SMTP envelope's recipients. */
  received: { mail: ParsedMail; rcptTo: string[] }[];
  /** The logins (AUTH) the server saw, when started with `auth`. */
  logins: { username: string; password: string }[];
  /** Resolves with the next message (or one already received beyond `seen`). */
  next(seen?: number): Promise<{ mail: ParsedMail; rcptTo: string[] }>;
  close(): Promise<void>;
}

export async function startLoopbackSmtp(
  options: { reject?: boolean; auth?: boolean } = {},
): Promise<LoopbackSmtp> {
  const received: LoopbackSmtp['received'] = [];
  const logins: LoopbackSmtp['logins'] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Loopback only: the login may travel without TLS here.
    allowInsecureAuth: options.auth === true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (options.reject) callback(new Error('mailbox unavailable'));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ mail, rcptTo: session.envelope.rcptTo.map((r) => r.address) });
          waiting.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    logins,
    async next(seen = received.length) {
      while (received.length <= seen) await new Promise<void>((wake) => waiting.push(wake));
      return received[seen]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
