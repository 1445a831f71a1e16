import { describe, expect, it } from 'vitest';
import {
  parsePipeline,
  parsePipelineJson,
  parsePipelineUri,
  parsePipelineYaml,
  pipelineKindFromContentType,
  type PipelineScript,
} from './index';

/** The model without source positions, which differ between forms by nature. */
function content(script: PipelineScript) {
  return {
    headers: script.headers,
    vars: script.vars,
    body: script.body,
    steps: script.steps.map(({ index, command, params, defaultValue }) => ({
      index,
      command,
      params,
      defaultValue,
    })),
  };
}

describe('the three forms give the same model', () => {
  it('for the spec example (log with message from the body)', () => {
    const yaml = parsePipelineYaml(
      ['pipeline:', '  - log:', '      message: "BODY: #{body.text}"', 'body: {"text": "hello"}', ''].join(
        '\n',
      ),
    );
    const json = parsePipelineJson(
      '{"pipeline": [{"log": {"message": "BODY: #{body.text}"}}], "body": {"text": "hello"}}',
    );
    const uri = parsePipelineUri('log?message=BODY:%20%23%7Bbody.text%7D');
    expect(content(yaml)).toEqual({
      headers: {},
      vars: {},
      body: { text: 'hello' },
      steps: [
        { index: 0, command: 'log', params: { message: 'BODY: #{body.text}' }, defaultValue: undefined },
      ],
    });
    expect(content(json)).toEqual(content(yaml));
    // A URI has no body section: everything else is equal.
    expect(content(uri)).toEqual({ ...content(yaml), body: null });
    expect([yaml.source, json.source, uri.source]).toEqual(['yaml', 'json', 'uri']);
  });

  it('for every item form and all sections', () => {
    const yaml = parsePipelineYaml(`
headers:
  description: A test
  retries: 3
vars:
  list: [1, 2]
  nested: {a: {b: null}}
pipeline:
  - datetime
  - log: hello
  - log:
  - log:
      message: hi
      level: INFO
  - set: [1, 2]
body: 42
`);
    const json = parsePipelineJson(
      JSON.stringify({
        headers: { description: 'A test', retries: 3 },
        vars: { list: [1, 2], nested: { a: { b: null } } },
        pipeline: [
          'datetime',
          { log: 'hello' },
          { log: null },
          { log: { message: 'hi', level: 'INFO' } },
          { set: [1, 2] },
        ],
        body: 42,
      }),
    );
    expect(content(json)).toEqual(content(yaml));
    expect(content(yaml).steps).toEqual([
      { index: 0, command: 'datetime', params: {}, defaultValue: undefined },
      { index: 1, command: 'log', params: {}, defaultValue: 'hello' },
      { index: 2, command: 'log', params: {}, defaultValue: undefined },
      { index: 3, command: 'log', params: { message: 'hi', level: 'INFO' }, defaultValue: undefined },
      { index: 4, command: 'set', params: {}, defaultValue: [1, 2] },
    ]);
    const uri = parsePipelineUri('datetime|log?message=hi&level=INFO');
    expect(content(uri).steps).toEqual([content(yaml).steps[0], { ...content(yaml).steps[3], index: 1 }]);
  });

  it('parsePipeline dispatches on the kind', () => {
    expect(parsePipeline('pipeline: [log]', 'yaml').source).toBe('yaml');
    expect(parsePipeline('{"pipeline": ["log"]}', 'json').source).toBe('json');
    expect(parsePipeline('log', 'uri').source).toBe('uri');
  });
});

describe('pipelineKindFromContentType', () => {
  it.each([
    [undefined, 'yaml'],
    ['', 'yaml'],
    ['application/yaml', 'yaml'],
    ['application/x-yaml', 'yaml'],
    ['text/yaml; charset=utf-8', 'yaml'],
    ['Application/JSON; charset=UTF-8', 'json'],
    ['text/plain', 'uri'],
    ['text/html', null],
    ['application/xml', null],
  ])('%s -> %s', (contentType, kind) => {
    expect(pipelineKindFromContentType(contentType)).toBe(kind);
  });
});
