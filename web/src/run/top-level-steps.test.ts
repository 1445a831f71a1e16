import { describe, expect, it } from 'vitest';
import { topLevelSteps } from './top-level-steps';

describe('the steps a run can start at', () => {
  it('are the steps outside if and foreach blocks, the openers included', () => {
    const text = `pipeline:
  - set.body: [1, 2]
  - foreach:
      in: "#{body}"
  - log: "#{vars.item}"
  - if: "#{true}"
  - log: nested
  - if.end
  - foreach.end
  - if: "#{true}"
  - log: a
  - if.else
  - log: b
  - if.end
  - log: done
`;
    expect([...topLevelSteps(text, 'yaml')]).toEqual([0, 1, 7, 12]);
  });

  it('reads URI and JSON pipelines too, and nothing of a text that does not parse', () => {
    expect([...topLevelSteps('set.body?value=1|log?message=x', 'uri')]).toEqual([0, 1]);
    expect([...topLevelSteps('{"pipeline": ["datetime", "log"]}', 'json')]).toEqual([0, 1]);
    expect([...topLevelSteps('pipeline: [', 'yaml')]).toEqual([]);
  });
});
