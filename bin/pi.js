#!/usr/bin/env node
// The `pi` command: runs the TypeScript CLI through tsx (installed with the project).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../server/cli/pi.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const result = spawnSync(process.execPath, ['--import', tsx, entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
