// Builds the editor harness page with the workbench's own Vite settings (workers, React).
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import base from '../../../vite.config';

export default mergeConfig(base, {
  root: fileURLToPath(new URL('.', import.meta.url)),
  build: { outDir: process.env.PIPEWORK_WEB_DIST ?? '/tmp/wb-c-harness', emptyOutDir: true },
});
