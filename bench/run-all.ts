/**
 * `npm run bench`: runs every benchmark (or those named on the command line), prints the table and saves the
 * figures to bench/last-run.json. `scripts/bench.mjs` runs it from a production bundle, as `npm start` runs
 * the server, so that no development loader distorts the figures.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import authBench from './auth.bench';
import { BenchReport, type BenchRow } from './bench-report';
import historyQueryBench from './history-query.bench';
import httpBench from './http.bench';
import instancesPostgresBench from './instances-postgres.bench';
import pelBench from './pel.bench';
import peersBench from './peers/peers.bench';
import propertyBench from './property.bench';
import propertyPostgresBench from './property-postgres.bench';
import regexBench from './regex.bench';
import scriptHttpBench from './script-http.bench';
import runsHistoryBench from './runs-history.bench';
import throughputBench from './throughput.bench';
import uploadBench from './upload.bench';
import { PROJECT_ROOT } from './support/project-root';
import listBench from './workbench/list.bench';
import workbenchBench from './workbench/workbench.bench';

const BENCHMARKS: Record<string, (report: BenchReport) => Promise<void>> = {
  auth: authBench,
  'history-query': historyQueryBench,
  http: httpBench,
  'instances-postgres': instancesPostgresBench,
  list: listBench,
  pel: pelBench,
  peers: peersBench,
  property: propertyBench,
  'property-postgres': propertyPostgresBench,
  regex: regexBench,
  'runs-history': runsHistoryBench,
  'script-http': scriptHttpBench,
  throughput: throughputBench,
  upload: uploadBench,
  workbench: workbenchBench,
};

/** Run only when named (`npm run bench:peers`): they install other systems on first use. */
const OPT_IN = new Set(['peers']);

const only = process.argv.slice(2);
const selected = Object.entries(BENCHMARKS).filter(([name]) =>
  only.length === 0 ? !OPT_IN.has(name) : only.includes(name),
);
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
writeFileSync(output, JSON.stringify(mergedRows(report.rows), null, 2) + '\n');
console.log(`\n${report.rows.length} figures written to bench/last-run.json`);
process.exit(0);

/** This run's rows, and the earlier rows of benchmarks not run this time (a row is its name and baseline). */
function mergedRows(rows: BenchRow[]): BenchRow[] {
  const earlier: BenchRow[] = existsSync(output)
    ? (JSON.parse(readFileSync(output, 'utf8')) as BenchRow[])
    : [];
  const id = (row: BenchRow) => `${row.name}\u0000${row.baseline}`;
  const now = new Set(rows.map(id));
  return [...earlier.filter((row) => !now.has(id(row))), ...rows];
}
