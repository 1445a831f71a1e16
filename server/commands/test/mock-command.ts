/** `mock.command`: inside a test run, replaces a command for the rest of that run (see test-run-registry.ts). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { TestRunRegistry } from './test-run-registry';

export const mockCommand = defineCommand<ServerServices>(
  {
    name: 'mock.command',
    summary: 'In a test run: replaces a command, when its parameters match, for the rest of that test run.',
    description:
      'Only inside a test pipeline run by test.run; anywhere else it fails. `when` is a condition that sees the ' +
      "mocked call as `request.params` (its parameters) and `request.input` (its input body), e.g. #{request.params.to == 'ann@example.com'}. " +
      'When it holds, the mock answers instead of the command: thenSetVar (a map) is set into the vars of the calling pipeline and of the test, thenError ' +
      '(a message, or {code, message}; default code UPSTREAM_FAILED) fails the step, thenSetBody becomes the ' +
      'output; without thenSetBody the body stays. Values are evaluated at the call, with the same `request`. ' +
      'A later mock of the same command is tried first; when none matches the real command runs.',
    parameters: {
      command: { type: 'string', description: 'The name of the command to replace, e.g. mail.send.' },
      when: {
        type: ['string', 'boolean'],
        description: 'A condition on the call (request.params, request.input); default: every call.',
      },
      thenSetBody: { description: 'The output of the mocked call (templates evaluated at the call).' },
      thenSetVar: { type: 'object', description: 'Variables to set at the call, name → value.' },
      thenError: { description: 'Fail the call: a message, or {code, message}.' },
    },
    required: ['command'],
    defaultParameter: 'command',
    rawParameters: ['when', 'thenSetBody', 'thenSetVar', 'thenError'],
    input: 'any',
    output: 'none',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Send no mail in a test, and remember the recipient',
        pipeline:
          'pipeline:\n  - mock.command:\n      command: mail.send\n      when: "#{request.params.to != null}"\n      thenSetVar: {mailedTo: "#{request.params.to}"}\n      thenSetBody: {sent: true}\n',
      },
    ],
  },
  (ctx) => {
    if (!(ctx.commands instanceof TestRunRegistry)) {
      throw new PipeworkError(
        'BAD_REQUEST',
        'mock.command works only inside a test pipeline run by test.run; it never applies elsewhere.',
      );
    }
    const { params } = ctx;
    ctx.commands.addMock({
      command: String(params.command),
      when: params.when,
      thenSetBody: params.thenSetBody,
      thenSetVar: params.thenSetVar,
      thenError: params.thenError,
      hasBody: 'thenSetBody' in params,
      declaredIn: ctx.scope,
    });
    return undefined;
  },
);
