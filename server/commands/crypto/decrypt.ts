/** `decrypt`: the value sealed by `encrypt`, as it was; a wrong key or a changed input is BAD_REQUEST. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { KEY_PARAMETERS, keySourceOf } from './key-source';
import { unseal } from './sealed-value';

export const decrypt = defineCommand<ServerServices>(
  {
    name: 'decrypt',
    summary:
      'Decrypts what encrypt made, with the same password or server key; the value comes back as it was.',
    description:
      'A wrong password or key, or an input that was changed in any way, is BAD_REQUEST: never garbage output.',
    parameters: KEY_PARAMETERS,
    defaultParameter: 'password',
    input: 'text',
    output: 'any',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Read an encrypted value',
        pipeline:
          'pipeline:\n  - property.value.get: global/app/myapp/secret/iban\n  - decrypt: {key: vault}\n',
      },
    ],
  },
  async (ctx) => {
    const input = ctx.input;
    const text = isBinaryContent(input) ? new TextDecoder().decode(input.data) : input;
    if (typeof text !== 'string')
      throw new PipeworkError('BAD_REQUEST', 'The input must be the text that encrypt made.');
    return unseal(text, keySourceOf(ctx));
  },
);
