/**
 * `event.listen`: as the first command of a stored pipeline it subscribes that pipeline to an event (the
 * dispatcher in server/events reads `key` and `filter`); when a pipeline runs, it only passes the body on.
 */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';

export const eventListen = defineCommand<ServerServices>(
  {
    name: 'event.listen',
    summary:
      'Runs the stored pipeline it starts whenever an event with this key (and matching filter) occurs.',
    description:
      'Put it first in a pipeline stored as a property under <app>/pipeline/<name>. The pipeline then runs as the ' +
      'user who stored it, with the event as its body: {eventKey, payload: {origin, target}, origin, target}; ' +
      'each property side has `path` (the key, as the real product names it) and the top-level origin and target ' +
      'carry a JSON value parsed. ' +
      "`filter` is an expression over that body, e.g. #{body.target.key.contains('/instance/')}. " +
      'When the pipeline runs, this step passes the body on unchanged.',
    parameters: {
      key: { type: 'string', description: 'The event key to listen for, e.g. property.created.' },
      filter: {
        type: 'string',
        description: 'An optional expression; the pipeline runs only when it is true.',
      },
    },
    required: ['key'],
    defaultParameter: 'key',
    rawParameters: ['filter'],
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'React to new form submissions',
        pipeline:
          'pipeline:\n  - event.listen:\n      key: property.created\n      filter: "#{body.target.key.contains(\'/object/invoice/v1/instance/\')}"\n  - log: "New invoice #{body.target.key}"\n',
      },
    ],
  },
  (ctx) => ctx.input,
);
