/** Builds the workbench (and the editor harness page in its `editor-harness/` folder) into a temporary dist. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root';

export const HARNESS_PATH = '/editor-harness/';
/** A bare React page with one form: the baseline for the JavaScript a first page needs. */
export const BARE_REACT_PATH = '/bare-react/';

function vite(args: string[], env: Record<string, string>): void {
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/vite/bin/vite.js'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`vite ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
}

/** The dist folder: the workbench at `/`, the editor alone at HARNESS_PATH, the baseline at BARE_REACT_PATH. */
export function buildWorkbench(): string {
  const dist = mkdtempSync(join(tmpdir(), 'pipework-bench-web-'));
  vite(['build', '--logLevel', 'error'], { PIPEWORK_WEB_DIST: dist });
  vite(['build', '--logLevel', 'error', '--config', 'bench/workbench/harness/vite.config.ts'], {
    PIPEWORK_WEB_DIST: join(dist, 'editor-harness'),
    PIPEWORK_HARNESS_BASE: HARNESS_PATH,
  });
  vite(['build', '--logLevel', 'error', '--config', 'bench/workbench/bare/vite.config.ts'], {
    PIPEWORK_WEB_DIST: join(dist, 'bare-react'),
    PIPEWORK_HARNESS_BASE: BARE_REACT_PATH,
  });
  return dist;
}
