/** Everything the server's commands and routes share, built once at start-up by `createServices`. */
import type { CommandRegistry } from '../shared/commands/registry';
import type { Authenticator } from './auth/authenticator';
import type { ServerConfig } from './config';
import type { SqliteDatabase } from './db';
import type { IamService } from './iam';
import type { Logger } from './logging/logger';

export interface ServerServices {
  config: ServerConfig;
  logger: Logger;
  db: SqliteDatabase;
  iam: IamService;
  authenticator: Authenticator;
  commands: CommandRegistry<ServerServices>;
}
