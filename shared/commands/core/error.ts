/** `error`: stops the pipeline with an error of the user's own words. */
import { PipeworkError } from '../../errors';
import { defineCommand } from '../command-definition';
import { logText } from './log';

export const error = defineCommand(
  {
    name: 'error',
    summary: 'Fails the pipeline with ASSERTION_FAILED and the given message.',
    parameters: { message: { description: 'The error message (text or an expression).' } },
    defaultParameter: 'message',
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Refuse empty input',
        pipeline: 'pipeline:\n  - error:\n      message: "No input"\n      if: "#{body == null}"\n',
      },
    ],
  },
  ({ params }) => {
    throw new PipeworkError(
      'ASSERTION_FAILED',
      params.message === undefined ? 'Pipeline stopped by error.' : logText(params.message),
    );
  },
);
