/** Verbs of the login: login, logout, status. */
import { endpointUrl, healthz, type Health } from '../../shared/api';
import { readFileSync } from 'node:fs';
import { CliError, DEFAULT_URL, normalizeUrl, send } from './cli-client';
import type { Register, VerbContext } from './cli-context';
import {
  DEFAULT_REALM,
  loginFile,
  passwordLogin,
  readLogin,
  removeLogin,
  revokeLogin,
  writeLogin,
} from './credentials';
import { EXIT } from './exit-codes';
import { askOnTerminal } from './terminal-prompt';

const PI_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Asks on the terminal; the password without echo. */
async function ask(ctx: VerbContext, question: string, hidden = false): Promise<string> {
  const { stdin, stderr } = ctx.streams;
  if (!stdin.isTTY)
    throw new CliError(`pi login needs ${question.replace(/: $/, '')} (give it as an option).`, EXIT.usage);
  return askOnTerminal(stdin, stderr, question, hidden);
}

async function readPassword(ctx: VerbContext, options: { passwordStdin?: boolean }): Promise<string> {
  if (options.passwordStdin) {
    let text = '';
    for await (const chunk of ctx.streams.stdin) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }
  return ctx.streams.env.PIPEWORK_PASSWORD ?? ask(ctx, 'Password: ', true);
}

export const registerAuthVerbs: Register = (program, action) => {
  program
    .command('login')
    .description('Sign in at a server and keep the tokens in your config folder (owner-only)')
    .argument('[url]', `the server (default: PIPEWORK_URL, the last login, or ${DEFAULT_URL})`)
    .option('--username <name>', 'the user (default: PIPEWORK_USER, else asked)')
    .option('--password-stdin', 'read the password from standard input (else PIPEWORK_PASSWORD, else asked)')
    .option('--realm <realm>', 'the realm of the token endpoint', DEFAULT_REALM)
    .action(
      action(
        async (
          ctx,
          url: string | undefined,
          options: { username?: string; passwordStdin?: boolean; realm: string },
        ) => {
          const env = ctx.streams.env;
          const server = normalizeUrl(
            url ?? ctx.options.url ?? env.PIPEWORK_URL ?? readLogin(env)?.url ?? DEFAULT_URL,
          );
          const username = options.username ?? env.PIPEWORK_USER ?? (await ask(ctx, 'Username: '));
          const password = await readPassword(ctx, options);
          const login = await passwordLogin(server, options.realm, username, password);
          writeLogin(env, login);
          if (ctx.out.json)
            ctx.out.data({ url: server, username, realm: options.realm, file: loginFile(env) });
          else ctx.out.line(`Logged in to ${server} as ${username}.`);
        },
      ),
    );

  program
    .command('logout')
    .description('End the stored login at the server and forget its tokens')
    .action(
      action(async (ctx) => {
        const login = readLogin(ctx.streams.env);
        if (!login) {
          if (ctx.out.json) ctx.out.data({ loggedOut: false });
          else ctx.out.line('Not logged in.');
          return;
        }
        try {
          await revokeLogin(login);
        } finally {
          removeLogin(ctx.streams.env);
        }
        if (ctx.out.json) ctx.out.data({ loggedOut: true, url: login.url, username: login.username });
        else ctx.out.line(`Logged out of ${login.url} (${login.username}).`);
      }),
    );

  program
    .command('status')
    .description('Show the server, who you are there, and the versions')
    .action(
      action(async (ctx) => {
        const settings = ctx.settings();
        const health = (await send(settings, endpointUrl(healthz, {}))).json<
          Partial<Health> & { version?: string }
        >();
        const who = await send(settings, '/api/v3/pipeline', {
          method: 'POST',
          contentType: 'application/yaml',
          body:
            'pipeline:\n  - set.body:\n      value:\n        username: "#{@user.username()}"\n' +
            '        roles: "#{@user.roles()}"\n        version: "#{@instance.version()}"\n',
        }).then((r) => r.json<{ username: string; roles: string[]; version?: string | null }>());
        const stored = readLogin(ctx.streams.env);
        const via = settings.authorization
          ? 'environment or --user'
          : settings.session
            ? `login (${loginFile(ctx.streams.env)})`
            : 'none';
        const status = {
          server: settings.url,
          serverStatus: health.status ?? 'unknown',
          serverVersion: who.version ?? health.version ?? null,
          user: who.username,
          roles: who.roles,
          credentials: via,
          loginExpires: settings.session && stored ? new Date(stored.refreshExpiresAt).toISOString() : null,
          piVersion: PI_VERSION,
        };
        if (ctx.out.json) {
          ctx.out.data(status);
          return;
        }
        ctx.out.table(
          ['', ''],
          [
            [
              'server',
              `${status.server} (${status.serverStatus}${status.serverVersion ? `, ${status.serverVersion}` : ''})`,
            ],
            ['user', status.user],
            ['roles', status.roles.join(', ')],
            ['credentials', status.credentials],
            ...(status.loginExpires ? [['login until', status.loginExpires]] : []),
            ['pi version', status.piVersion],
          ],
        );
      }),
    );
};
