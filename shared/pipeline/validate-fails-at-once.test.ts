// pipeline.validate finds what parses but fails the moment it runs: unknown utilities and functions, date
// patterns with an unknown letter, URI forms that do not exist, unknown commands inside blocks.
import { describe, expect, it } from 'vitest';
import { CommandRegistry, checkExpression, coreCommands } from '../commands';
import { validatePipeline } from './validate-pipeline';

const registry = new CommandRegistry(coreCommands);
const problems = (yaml: string) =>
  validatePipeline(yaml, 'yaml', registry, { checkExpression }).map((p) => [p.code, p.message]);

describe('validate finds what fails at once', () => {
  it.each([
    ['an unknown utility', 'pipeline:\n  - set.body: "#{@nope.x(1)}"\n', "unknown utility '@nope'"],
    ['an unknown function', 'pipeline:\n  - set.body: "#{@date.tomorrow()}"\n', "has no function 'tomorrow'"],
    [
      'an unknown date letter',
      'pipeline:\n  - set.body: "#{@date.format(0, \'yyyy-bb\')}"\n',
      "unknown pattern letter 'b'",
    ],
    [
      'an unknown date letter in now',
      'pipeline:\n  - log: "#{@date.now(\'dd.MM.J\')}"\n',
      "unknown pattern letter 'J'",
    ],
    [
      'a URI form that does not exist',
      'pipeline:\n  - set.body: "#{@resolve.uri(\'$uri:secret:x\')}"\n',
      "'uri:secret:' does not exist",
    ],
  ])('%s', (_what, yaml, message) => {
    const found = problems(yaml);
    expect(found).toHaveLength(1);
    expect(found[0]![0]).toBe('PEL_EVAL');
    expect(found[0]![1]).toContain(message);
  });

  it('an unknown command inside if and foreach blocks', () => {
    const found = problems(
      'pipeline:\n  - if: "#{true}"\n  - nope.one\n  - foreach: "#{{1}}"\n  - nope.two\n  - foreach.end\n  - if.end\n',
    );
    expect(found.map((p) => p[0])).toEqual(['COMMAND_NOT_FOUND', 'COMMAND_NOT_FOUND']);
  });

  it('finally inside a foreach', () => {
    const found = problems('pipeline:\n  - foreach: "#{{1}}"\n  - finally\n  - foreach.end\n');
    expect(found).toHaveLength(1);
    expect(found[0]![0]).toBe('PIPELINE_SYNTAX');
    expect(found[0]![1]).toContain("is inside the 'foreach'");
  });

  it('passes Java letters and zones the real product knows', () => {
    expect(
      problems(
        "pipeline:\n  - log: \"#{@date.now('dd.MM.YY, HH:mm')} #{@date.now('Europe/Berlin', 'de')} #{@date.format(0, 'EEE u a Q')}\"\n",
      ),
    ).toEqual([]);
  });
});
