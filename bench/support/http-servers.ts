/**
 * Child process of the HTTP benchmarks: serves Pipework (real config, production password hashing) and a
 * bare Express handler side by side, so both are measured the same way from the parent.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createServices } from '../../server/create-services';
import { createHttpServer } from '../../server/http/http-server';
import { DEFAULT_LISTENER_CONFIG } from '../../server/http/listener-config';
import { silentLogger } from '../../server/logging/logger';
import { BENCH_ADMIN_PASSWORD } from './bench-constants';

const config = loadConfig({
  PIPEWORK_DATA: mkdtempSync(join(tmpdir(), 'pipework-bench-')),
  PIPEWORK_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
  // The run-history benchmark starts one server with the history off.
  PIPEWORK_RUNS_HISTORY: process.env.PIPEWORK_RUNS_HISTORY ?? 'on',
});
const services = await createServices(config, silentLogger(), { iam: { announce: () => {} } });
// Served as `server/main.ts` serves it.
const pipework = createHttpServer(createApp(services), config.listener ?? DEFAULT_LISTENER_CONFIG).listen(
  0,
  '127.0.0.1',
);

const bare = express();
bare.disable('x-powered-by');
bare.get('/api/v3/command/datetime', (_req, res) => {
  res.type('text/plain; charset=utf-8').send(new Date().toISOString());
});
const bareServer = bare.listen(0, '127.0.0.1');

await Promise.all([pipework, bareServer].map((s) => new Promise((resolve) => s.once('listening', resolve))));
process.on('disconnect', () => process.exit(0));
process.send!({
  pipework: `http://127.0.0.1:${(pipework.address() as AddressInfo).port}`,
  bare: `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`,
});
process.on('message', (m) => {
  if (m === 'cpu') {
    const u = process.cpuUsage();
    process.send!({ cpu: u.user + u.system });
  }
});
