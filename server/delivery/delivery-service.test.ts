// The delivery service on both databases (SQLite and a real PostgreSQL): deliveries stored whole with their
// bytes, sent into the mail outbox, opened by token, downloaded (encrypted at rest from level 3), counted,
// listed both ways, and deleted by expiry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqlPort } from '../db/sql';
import { MailService, loadMailConfig } from '../mail';
import { makePrincipal } from '../store/test-fixtures';
import { sqlBackends } from '../testing/sql-backends';
import { createDeliveryService, loadDeliveryConfig, type DeliveryService } from '.';

const dir = mkdtempSync(join(tmpdir(), 'delivery-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const backends = sqlBackends('delivery');

const sender = { ...makePrincipal('sam'), email: 'sam@example.com' };
const reader = { ...makePrincipal('rita'), email: 'rita@example.com' };
const BYTES = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x7f, 0x80, 0]);

async function scenario(sql: SqlPort, name: string) {
  const mail = new MailService(loadMailConfig({}, join(dir, name)));
  const service: DeliveryService = await createDeliveryService(
    sql,
    mail,
    loadDeliveryConfig({}),
    () => 'http://files.example',
  );
  return { service, mail };
}

/** The token of the newest link mail to `to`. */
async function tokenOf(mail: MailService, to: string): Promise<{ token: string; password?: string }> {
  const texts: string[] = [];
  for (const entry of await mail.outbox()) texts.push((await mail.outboxMail(entry.name)).toString('utf8'));
  const forThem = texts.filter((t) => t.includes(`To: ${to}`));
  const token = forThem.map((t) => /\/delivery\/([A-Za-z0-9_-]{43})/.exec(t)?.[1]).find(Boolean)!;
  const password = forThem.map((t) => /\r\n\r\n(\S{22})\r\n\r\n/.exec(t)?.[1]).find(Boolean);
  return { token, password };
}

describe.each(backends)('deliveries on %s', (name, open, skip) => {
  it.skipIf(skip)(
    'stores, sends, opens, decrypts, counts, lists and expires',
    async () => {
      const { sql, close } = await open('delivery');
      try {
        const { service, mail } = await scenario(sql, name);
        const created = await service.create(sender, {
          subject: 'Both ways',
          message: 'hello',
          privacyLevel: 3,
          recipients: ['rita@example.com'],
          deleteAfter: Date.now() + 60_000,
          attachments: [{ name: 'raw.bin', mimeType: 'application/octet-stream', content: BYTES }],
        });
        expect(created).toMatchObject({
          status: 'DRAFT',
          attachments: [{ position: 0, name: 'raw.bin', length: 8 }],
        });
        const sent = await service.send(sender, created.uuid);
        expect(sent).toMatchObject({ status: 'FINALIZED', encrypted: true });
        expect(sent.recipients[0]!.sent).toBeGreaterThan(0);
        const { token, password } = await tokenOf(mail, 'rita@example.com');
        expect(password).toBeDefined();
        const link = (await service.openLink(token))!;
        expect(link.delivery.uuid).toBe(created.uuid);
        expect(service.passwordMatches(link, 'wrong')).toBe(false);
        expect(service.passwordMatches(link, password!)).toBe(true);
        const bytes = await service.download(link, 0, token, password!);
        expect(Buffer.from(bytes).equals(BYTES)).toBe(true);
        await expect(service.download(link, 0, token, 'wrong-password')).rejects.toThrow();
        expect((await service.owned(sender, created.uuid)).recipients[0]!.downloads).toBe(1);
        expect((await service.inbox(reader)).map((d) => d.uuid)).toEqual([created.uuid]);
        expect((await service.outbox(sender)).map((d) => d.uuid)).toEqual([created.uuid]);
        await expect(service.owned(reader, created.uuid)).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await service.openLink('x'.repeat(43))).toBeUndefined();
        expect(await service.deleteExpired(Date.now())).toBe(0);
        expect(await service.deleteExpired(Date.now() + 120_000)).toBe(1);
        expect(await service.openLink(token)).toBeUndefined();
        const left = await sql.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM delivery_attachment');
        expect(Number(left!.n)).toBe(0);
      } finally {
        await close();
      }
    },
    60_000,
  );
});
