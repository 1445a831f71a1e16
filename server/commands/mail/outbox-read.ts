/** `mail.outbox.read`: one mail of the outbox as its raw message (message/rfc822). */
import { defineCommand } from '../../../shared/commands';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';

export const mailOutboxRead = defineCommand<ServerServices>(
  {
    name: 'mail.outbox.read',
    summary: 'Returns one mail of the outbox as an .eml file (message/rfc822).',
    parameters: {
      name: { type: 'string', description: 'The file name of the mail, as mail.outbox.list shows it.' },
    },
    required: ['name'],
    defaultParameter: 'name',
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'admin',
    examples: [
      {
        title: 'The newest mail',
        pipeline: "pipeline:\n  - mail.outbox.list\n  - mail.outbox.read: '#{body[0].name}'\n",
      },
    ],
  },
  async (ctx) => {
    const name = String(ctx.params.name);
    return new BinaryContent(
      new Uint8Array(await ctx.services.mail.outboxMail(name)),
      'message/rfc822',
      name,
    );
  },
);
