/** `npm run bench`: runs every bench/*.bench.ts (or those named on the command line), prints and saves the figures. */
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchReport } from './bench-report';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const report = new BenchReport();
for (const file of files) {
  console.log(`\n${file}`);
  const module = (await import(pathToFileURL(join(here, file)).href)) as {
    default: (report: BenchReport) => Promise<void>;
  };
  await module.default(report);
}
writeFileSync(join(here, 'last-run.json'), JSON.stringify(report.rows, null, 2) + '\n');
console.log(`\n${report.rows.length} figures written to bench/last-run.json`);
process.exit(0);
