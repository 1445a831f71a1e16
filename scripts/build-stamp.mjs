// Tells whether a build is older than its sources, so that `npm start` rebuilds only what changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file below `paths` (folders are walked; node_modules, dist and dot folders skipped), sorted. */
function listFiles(root, paths) {
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (!stat.isDirectory()) {
      files.push({ path: relative(root, path), size: stat.size, mtime: stat.mtimeMs });
      return;
    }
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
      walk(join(path, entry));
    }
  };
  for (const path of paths) walk(join(root, path));
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * A digest of the inputs' names, sizes and modification times: cheap (no file is read), and it changes when a
 * file is edited, added, removed or replaced by a checkout.
 */
export function sourceDigest(root, paths) {
  const hash = createHash('sha256');
  for (const file of listFiles(root, paths)) hash.update(`${file.path}\0${file.size}\0${file.mtime}\n`);
  return hash.digest('hex');
}

/** True when `output` exists and was built from inputs with this digest. */
export function isUpToDate(stampFile, output, digest) {
  if (!existsSync(output) || !existsSync(stampFile)) return false;
  return readFileSync(stampFile, 'utf8').trim() === digest;
}

export function writeStamp(stampFile, digest) {
  writeFileSync(stampFile, `${digest}\n`);
}
