// The event body event.listen pipelines receive, in the real product's shape, and the SSE form beside it.
import { describe, expect, it } from 'vitest';
import type { PipeworkEvent } from './event-bus';
import { eventJson } from './event-bus';
import { eventBody } from './event-listen-dispatcher';

const target = { key: 'global/app/a/object/f/v1/instance/1', type: 'application/json', value: '{"n":1}' };
const event: PipeworkEvent = {
  id: 1,
  eventKey: 'property.changed',
  payload: { origin: { ...target, value: 'not json' }, target },
  timestamp: 5,
  depth: 0,
};

describe('property event shape', () => {
  it('gives event.listen pipelines path beside key and a JSON value parsed (text that is not JSON stays)', () => {
    const body = eventBody(event);
    expect(body.target).toEqual({ ...target, path: target.key, value: { n: 1 } });
    expect(body.origin).toEqual({ ...target, path: target.key, value: 'not json' });
    expect(body.payload).toEqual({
      origin: { ...target, path: target.key, value: 'not json' },
      target: { ...target, path: target.key },
    });
  });

  it('keeps SSE values as text and adds path; other payloads are untouched', () => {
    expect(eventJson(event).payload).toEqual({
      origin: { ...target, path: target.key, value: 'not json' },
      target: { ...target, path: target.key },
    });
    const created = eventJson({
      ...event,
      payload: { origin: null, target: { ...target, type: 'text/plain' } },
    });
    expect(created.payload).toEqual({
      origin: null,
      target: { ...target, type: 'text/plain', path: target.key },
    });
    expect(eventJson({ ...event, eventKey: 'custom', payload: [1] }).payload).toEqual([1]);
  });
});
