import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNamedKeys } from '../crypto/named-keys';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

const SECRETS = {
  smtpPassword: 'smtp-pass-9f3a1c',
  keySecret: 'server-key-secret-7b2e5d0c4a',
  dbPassword: 'db-pass-c81e07',
};

describe('config.get', () => {
  let server: TestServer;
  let bare: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PIPEWORK_SMTP_URL: `smtp://robot:${SECRETS.smtpPassword}@127.0.0.1:2525`,
        PIPEWORK_KEY_VAULT: SECRETS.keySecret,
        PIPEWORK_DATASOURCE_CRM_URL: `postgres://crm:${SECRETS.dbPassword}@127.0.0.1:5432/crm`,
        PIPEWORK_PUBLIC_URL: 'https://pipework.example.com',
        PIPEWORK_MAIL_FROM: 'robot@example.com',
        PIPEWORK_ENV_REGION: 'eu',
      },
    });
    bare = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await bare.close();
  });

  it.each<CommandForm>(['GET', 'pipeline'])(
    'shows the instance and which parts are set up (%s form)',
    async (form) => {
      const response = await callCommand(form, server.url, 'config.get', {}, server.adminAuth);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        instance: { version: '0.1.0', url: 'https://pipework.example.com', name: 'pipework' },
        limits: { commandBodyBytes: 10 * 1024 * 1024, pipelineSteps: 100_000, driveFileBytes: 2 * 1024 ** 3 },
        mail: { smtpConfigured: true, outbox: false, from: 'robot@example.com' },
        encryption: { serverKeys: ['vault'] },
        sql: { dataSources: ['crm'] },
      });
      const plain = await callCommand(form, bare.url, 'config.get', { group: 'mail' }, bare.adminAuth);
      expect(plain.json).toMatchObject({ smtpConfigured: false, outbox: true });
    },
  );

  it('never shows a secret', async () => {
    const response = await callCommand('GET', server.url, 'config.get', {}, server.adminAuth);
    for (const secret of [
      ...Object.values(SECRETS),
      TEST_ADMIN_PASSWORD,
      server.config.dataDir,
      'smtp://',
      'postgres://',
    ]) {
      expect(response.text).not.toContain(secret);
    }
  });

  it('answers one group or one value, and refuses unknown ones', async () => {
    const steps = await callCommand(
      'pipeline',
      server.url,
      'config.get',
      { group: 'limits', key: 'pipelineSteps' },
      server.adminAuth,
    );
    expect(steps.json).toBe(100_000);
    for (const params of [
      { group: 'secrets' },
      { group: 'limits', key: 'nope' },
      { key: 'pipelineSteps' },
      { group: '__proto__' },
    ]) {
      expect(codeOf(await callCommand('GET', server.url, 'config.get', params, server.adminAuth))).toBe(
        'PARAM_INVALID',
      );
    }
  });

  it('reads server keys by lower-case name and refuses short secrets at start', () => {
    expect(
      Object.keys(loadNamedKeys({ PIPEWORK_KEY_REPORTS: SECRETS.keySecret, PIPEWORK_KEY_: 'x' })),
    ).toEqual(['reports']);
    expect(() => loadNamedKeys({ PIPEWORK_KEY_WEAK: 'short' })).toThrow(/at least 16/);
  });
});
