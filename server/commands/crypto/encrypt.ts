/** `encrypt`: the body (or input) sealed with AES-256-GCM, as one line of text. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_PARAMETERS, keySourceOf } from './key-source';
import { seal } from './sealed-value';

export const encrypt = defineCommand<ServerServices>(
  {
    name: 'encrypt',
    summary: 'Encrypts the body (text, JSON or a file) with AES-256-GCM; the result is one line of text.',
    description:
      'The key comes from password (scrypt with a random salt, kept in the result) or from a named server key ' +
      '(key: reports uses PIPEWORK_KEY_REPORTS). decrypt gives back the value as it was, of the same kind. ' +
      'The result starts with pwe1.',
    parameters: KEY_PARAMETERS,
    defaultParameter: 'password',
    input: 'any',
    output: 'text',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Keep a value encrypted',
        pipeline:
          'pipeline:\n  - set.body: {value: {iban: DE02120300000000202051}}\n  - encrypt: {key: vault}\n' +
          '  - property.put: {key: global/app/myapp/secret/iban}\n',
      },
    ],
  },
  async (ctx) => seal(ctx.input, keySourceOf(ctx)),
);
