/** The project's root folder, found from this file whether it runs from source or from a bundle in dist/. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json above the benchmarks');
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot();
