import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../shared/pel';
import { parsePipelineYaml } from '../../shared/pipeline';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/app-examples');

function pipelineFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pipelineFiles(path);
    return entry.name.endsWith('.pi.yaml') ? [path] : [];
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Problem {
  code: string;
  severity: string;
  message: string;
  line?: number;
  column?: number;
  commandName?: string;
}

describe('pipeline.validate over the real apps of the corpus', () => {
  const files = pipelineFiles(corpus);

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files.map((f) => [relative(corpus, f), f]))(
    '%s: no syntax error, every problem placed',
    async (_name, file) => {
      const text = readFileSync(file, 'utf8');
      const response = await http(server.url, '/api/v3/command/pipeline.validate', {
        body: text,
        type: 'text/plain',
        auth: server.adminAuth,
      });
      expect(response.status).toBe(200);
      const problems = response.json as Problem[];
      expect(problems.filter((p) => p.code === 'PIPELINE_SYNTAX')).toEqual([]);
      for (const problem of problems) {
        expect(problem.line, JSON.stringify(problem)).toBeGreaterThan(0);
        expect(problem.column, JSON.stringify(problem)).toBeGreaterThan(0);
      }
      // Every command this server does not offer is reported at the line of its name.
      const unknown = parsePipelineYaml(text).steps.filter((s) => !server.services.commands.get(s.command));
      const reported = problems.filter((p) => p.code === 'COMMAND_NOT_FOUND');
      expect(reported.map((p) => [p.commandName, p.line])).toEqual(
        unknown.map((s) => [s.command, s.position!.line]),
      );
    },
  );
});

describe.skipIf(!existsSync(corpus))('the utilities the real apps of the corpus call', () => {
  const files = existsSync(corpus) ? pipelineFiles(corpus) : [];
  const withUtilities = files.filter((f) => /#\{[^}]*@[a-z]+\./.test(readFileSync(f, 'utf8')));

  it('are called by some of the pipelines', () => {
    expect(withUtilities.length).toBeGreaterThan(0);
  });

  it.each(withUtilities.map((f) => [relative(corpus, f), f]))(
    '%s: no unknown utility or function',
    (_name, file) => {
      const unknown = analyze(readFileSync(file, 'utf8'), { mode: 'template' }).diagnostics.filter(
        (d) => d.reason === 'UNKNOWN_UTILITY' || d.reason === 'UNKNOWN_FUNCTION',
      );
      expect(unknown.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    },
  );
});
