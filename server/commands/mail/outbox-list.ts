/** `mail.outbox.list`: the mails written to the outbox (when no SMTP server is set). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';

export const mailOutboxList = defineCommand<ServerServices>(
  {
    name: 'mail.outbox.list',
    summary: 'Lists the mails in the outbox (id, size, created), newest first.',
    description:
      'Without PIPEWORK_SMTP_URL, mail.send writes each mail as an .eml file to the outbox folder of the ' +
      "data folder. The outbox holds every user's mail, so by default only admins may list it.",
    parameters: {},
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'admin',
    examples: [{ title: 'What was sent', pipeline: 'pipeline:\n  - mail.outbox.list\n' }],
  },
  (ctx) => ctx.services.mail.outbox(),
);
