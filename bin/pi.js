#!/usr/bin/env node
// The `pi` command. It runs a bundle of the CLI (dist/cli/pi.mjs), rebuilt only when one of the source files it
// was built from changed: one process and no TypeScript compiled per call. Where the bundle cannot be written
// (a read-only install), it runs the sources through tsx as before.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'server/cli/pi.ts');
const bundle = join(root, 'dist/cli/pi.mjs');
const stampFile = join(root, 'dist/cli/pi.stamp.json');

/** Names, sizes and times of the files the bundle was made from (and the lock file): cheap, no file is read. */
function digestOf(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) return null;
    const stat = statSync(path);
    hash.update(`${input}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function isUpToDate() {
  if (!existsSync(bundle) || !existsSync(stampFile)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp.digest === digestOf(stamp.inputs);
  } catch {
    return false;
  }
}

/** Bundles the CLI beside a temporary name and renames it into place, so concurrent calls never see half a file. */
async function build() {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(join(root, 'dist/cli'), { recursive: true });
  const temporary = `${bundle}.${process.pid}.tmp`;
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'error',
  });
  const inputs = [...Object.keys(result.metafile.inputs), 'package-lock.json'].map((p) =>
    relative(root, join(root, p)),
  );
  renameSync(temporary, bundle);
  const stampTemporary = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(stampTemporary, JSON.stringify({ digest: digestOf(inputs), inputs }));
  renameSync(stampTemporary, stampFile);
}

function runThroughTsx() {
  const tsx = import.meta.resolve('tsx');
  const result = spawnSync(process.execPath, ['--import', tsx, entry, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}

let ready = isUpToDate();
if (!ready) {
  try {
    await build();
    ready = true;
  } catch {
    ready = false;
  }
}
if (ready) await import(pathToFileURL(bundle).href);
else runThroughTsx();
