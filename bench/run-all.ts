/**
 * `npm run bench`: runs every benchmark (or those named on the command line), prints the table and saves the
 * figures to bench/last-run.json. `scripts/bench.mjs` runs it from a production bundle, as `npm start` runs
 * the server, so that no development loader distorts the figures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import authBench from './auth.bench';
import { BenchReport } from './bench-report';
import httpBench from './http.bench';
import instancesPostgresBench from './instances-postgres.bench';
import pelBench from './pel.bench';
import propertyBench from './property.bench';
import propertyPostgresBench from './property-postgres.bench';
import regexBench from './regex.bench';
import scriptHttpBench from './script-http.bench';
import runsHistoryBench from './runs-history.bench';
import throughputBench from './throughput.bench';
import uploadBench from './upload.bench';
import { PROJECT_ROOT } from './support/project-root';
import workbenchBench from './workbench/workbench.bench';

const BENCHMARKS: Record<string, (report: BenchReport) => Promise<void>> = {
  auth: authBench,
  http: httpBench,
  'instances-postgres': instancesPostgresBench,
  pel: pelBench,
  property: propertyBench,
  'property-postgres': propertyPostgresBench,
  regex: regexBench,
  'runs-history': runsHistoryBench,
  'script-http': scriptHttpBench,
  throughput: throughputBench,
  upload: uploadBench,
  workbench: workbenchBench,
};

const only = process.argv.slice(2);
const selected = Object.entries(BENCHMARKS).filter(([name]) => only.length === 0 || only.includes(name));
if (selected.length === 0) {
  console.error(`No benchmark named ${only.join(', ')}; there are: ${Object.keys(BENCHMARKS).join(', ')}.`);
  process.exit(2);
}

const report = new BenchReport();
for (const [name, run] of selected) {
  console.log(`\n${name}`);
  await run(report);
}
const output = join(PROJECT_ROOT, 'bench', 'last-run.json');
writeFileSync(output, JSON.stringify(report.rows, null, 2) + '\n');
console.log(`\n${report.rows.length} figures written to bench/last-run.json`);
process.exit(0);
