// Builds the bare React page (the benchmark's baseline) with the workbench's own Vite settings.
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import base from '../../../vite.config';

export default mergeConfig(base, {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: process.env.PIPEWORK_HARNESS_BASE ?? '/',
  build: { outDir: process.env.PIPEWORK_WEB_DIST ?? '/tmp/wb-c-bare', emptyOutDir: true },
});
