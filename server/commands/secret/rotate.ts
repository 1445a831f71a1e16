/** `secret.key.rotate`: seals every secret with a new master key (admins only; docs/secrets.md). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';

export const secretKeyRotate = defineCommand<ServerServices>(
  {
    name: 'secret.key.rotate',
    summary: 'Re-encrypts every secret with a new master key; with a key file, the file is replaced.',
    description:
      'With the key file (secrets.key in the data folder) a new random key is written next to it, every secret ' +
      'is re-encrypted in one transaction, then the new file replaces the old one. With PIPEWORK_SECRETS_KEY, ' +
      'set the new key there and the old one in PIPEWORK_SECRETS_KEY_PREVIOUS, restart, run this command, then ' +
      'drop the previous key. Answers {resealed, keyId}.',
    parameters: {},
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'admin',
    permission: 'CAN_PIPE_secret.key.rotate',
  },
  (ctx) => ctx.services.secrets.rotateKey(),
);
