/**
 * Child process of the drive upload memory test: the real app on a loopback port with its own data folder,
 * so the parent can read this process's resident memory while it streams an upload to disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../app';
import { loadConfig } from '../../config';
import { closeServices, createServices } from '../../create-services';
import { TEST_HASH_COST } from '../../iam';
import { silentLogger } from '../../logging/logger';

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-upload-'));
const config = loadConfig({ PIPEWORK_DATA: dataDir, PIPEWORK_ADMIN_PASSWORD: 'upload-test-password' });
const services = await createServices(config, silentLogger(), {
  iam: { passwordHashCost: TEST_HASH_COST, announce: () => {} },
});
const server = createApp(services, { webDist: join(dataDir, 'no-web') }).listen(0, '127.0.0.1');
server.once('listening', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, dataDir });
});
process.on('disconnect', () => {
  server.close();
  void closeServices(services).finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
