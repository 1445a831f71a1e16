// Builds the editor harness page with the workbench's own Vite settings (workers, React). The benchmark
// builds it into a sub-folder of the workbench's dist (PIPEWORK_HARNESS_BASE=/editor-harness/).
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import base from '../../../vite.config';

export default mergeConfig(base, {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: process.env.PIPEWORK_HARNESS_BASE ?? '/',
  build: { outDir: process.env.PIPEWORK_WEB_DIST ?? '/tmp/wb-c-harness', emptyOutDir: true },
});
