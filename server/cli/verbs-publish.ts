/**
 * `pi publish <folder>`: uploads the folder's files as properties, only what the server does not have
 * already (decided by the server's hash of each value), then runs the published apps' tests.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import type { TestReport } from '../../shared/app-tests/test-report';
import { CliError, command, type CliSettings } from './cli-client';
import type { Register } from './cli-context';
import { EXIT } from './exit-codes';
import { junitXml } from './junit';
import {
  appsWithTests,
  listingPatterns,
  planPublish,
  keyPrefixOf,
  noKeyPrefix,
  readFolder,
  type LocalProperty,
  type PlannedProperty,
  type RemoteProperty,
} from './publish';
import { finishTests, runTests } from './verbs-test';

async function remoteHashes(
  settings: CliSettings,
  local: LocalProperty[],
): Promise<Map<string, RemoteProperty>> {
  const remote = new Map<string, RemoteProperty>();
  for (const pattern of listingPatterns(local)) {
    const listed = await command<{ key: string; hash: string | null; type: string | null }[]>(
      settings,
      'property.list',
      { pattern, hash: true },
    );
    for (const p of listed ?? []) remote.set(p.key.replace(/^\//, ''), { hash: p.hash, type: p.type });
  }
  return remote;
}

/** The reports of several apps as one, for one JUnit file. */
function mergeReports(reports: TestReport[]): TestReport {
  const sum = (pick: (r: TestReport) => number) => reports.reduce((n, r) => n + pick(r), 0);
  return {
    total: sum((r) => r.total),
    passed: sum((r) => r.passed),
    failed: sum((r) => r.failed),
    durationMs: sum((r) => r.durationMs),
    tests: reports.flatMap((r) => r.tests),
  };
}

interface Outcome {
  key: string;
  type: string;
  file: string;
  result: 'created' | 'updated' | 'unchanged' | 'failed';
  error?: string;
}

export const registerPublishVerbs: Register = (program, action) => {
  program
    .command('publish')
    .description("Upload a folder's files as properties (only new or changed ones), then run the apps' tests")
    .argument('<folder>', 'the folder whose paths are the keys, e.g. ./ holding global/app/<app>/...')
    .option('-n, --dry-run', 'show what would be sent, send nothing')
    .option('--no-test', "do not run the published apps' tests afterwards")
    .option('--junit <file>', 'write the test report as JUnit XML to FILE')
    .action(
      action(async (ctx, folder: string, options: { dryRun?: boolean; test: boolean; junit?: string }) => {
        if (!existsSync(folder) || !statSync(folder).isDirectory())
          throw new CliError(`${folder} is not a folder.`, EXIT.notFound);
        if (keyPrefixOf(folder) === undefined) throw new CliError(noKeyPrefix(folder), EXIT.usage);
        const settings = ctx.settings();
        const local = readFolder(folder);
        const plan: PlannedProperty[] = planPublish(local, await remoteHashes(settings, local));
        // Object schemas go first: the server checks instances against the schema beside them.
        const toSend = plan
          .filter((p) => p.change !== 'unchanged')
          .sort((a, b) => Number(!a.key.endsWith('/schema')) - Number(!b.key.endsWith('/schema')));
        const outcomes: Outcome[] = plan
          .filter((p) => p.change === 'unchanged')
          .map((p) => ({ key: p.key, type: p.type, file: p.file, result: 'unchanged' }));
        const bar = ctx.out.progress(options.dryRun ? 0 : toSend.length, 'publishing');
        for (const p of toSend) {
          const outcome: Outcome = {
            key: p.key,
            type: p.type,
            file: p.file,
            result: p.change as 'created' | 'updated',
          };
          if (!options.dryRun) {
            try {
              await command(
                settings,
                'property.schema.put',
                { key: p.key, value: p.value, type: p.type, evalValue: false },
                p.file,
              );
            } catch (error) {
              if (!(error instanceof CliError) || error.exitCode === EXIT.auth) throw error;
              outcome.result = 'failed';
              outcome.error = error.message;
            }
          }
          outcomes.push(outcome);
          bar.tick(p.key);
        }
        bar.done();
        const count = (result: Outcome['result']) => outcomes.filter((o) => o.result === result).length;
        const summary = {
          dryRun: options.dryRun === true,
          created: count('created'),
          updated: count('updated'),
          unchanged: count('unchanged'),
          failed: count('failed'),
        };
        const sent = outcomes
          .filter((o) => o.result !== 'unchanged')
          .sort((a, b) => a.key.localeCompare(b.key));
        if (!ctx.out.json) {
          if (sent.length)
            ctx.out.table(
              ['RESULT', 'KEY', 'TYPE'],
              sent.map((o) => [o.result, o.key, o.type]),
            );
          for (const o of sent.filter((o) => o.error)) ctx.out.note(`pi: ${o.file}: ${o.error}`);
          const prefix = summary.dryRun ? 'Would publish: ' : '';
          ctx.out.line(
            `${prefix}${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed.`,
          );
        }
        let code: number = summary.failed ? EXIT.failed : EXIT.ok;
        const apps = options.test && !options.dryRun ? appsWithTests(local) : [];
        const reports = [];
        for (const app of apps) {
          const report = await runTests(settings, `${app}/test/**`);
          reports.push({ app, report });
        }
        if (ctx.out.json) {
          if (options.junit && reports.length)
            writeFileSync(options.junit, junitXml(mergeReports(reports.map((r) => r.report))));
          ctx.out.data({ ...summary, properties: sent, tests: reports });
          code = Math.max(code, ...reports.map((r) => (r.report.failed ? EXIT.failed : EXIT.ok)));
          return code;
        }
        for (const { app, report } of reports) {
          ctx.out.line('');
          ctx.out.line(`Tests of ${app}:`);
          code = Math.max(code, finishTests(ctx, report));
        }
        if (options.junit && reports.length)
          writeFileSync(options.junit, junitXml(mergeReports(reports.map((r) => r.report))));
        return code;
      }),
    );
};
