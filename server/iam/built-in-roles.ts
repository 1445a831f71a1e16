/** The built-in roles and their default permissions (documented in docs/auth.md; keep both in step). */
import { ROLE_ADMIN, ROLE_DEVELOPER, ROLE_USER } from '../../shared/auth';
import { CAN_RUN_AS_SOURCE, CAN_RUN_AS_TARGET } from '../auth/run-as';

export interface BuiltInRole {
  name: string;
  description: string;
  /** Roles this one contains (created when missing). */
  composites: string[];
}

/** What every signed-in user may do: everyday commands; the folder rules still decide which properties. */
const USER_PERMISSIONS = [
  'CAN_PIPE_log',
  'CAN_PIPE_datetime*',
  'CAN_PIPE_set*',
  'CAN_PIPE_body.*',
  'CAN_PIPE_if*',
  'CAN_PIPE_foreach*',
  'CAN_PIPE_exit',
  'CAN_PIPE_assert',
  'CAN_PIPE_test',
  'CAN_PIPE_error',
  'CAN_PIPE_eval',
  'CAN_PIPE_pipe.schema*',
  'CAN_PIPE_pipeline.validate',
  'CAN_PIPE_property.list',
  'CAN_PIPE_property.keys*',
  'CAN_PIPE_property.object.instances',
  'CAN_PIPE_property.copy',
  'CAN_PIPE_property.move',
  'CAN_PIPE_property.attachment.*',
  'CAN_PIPE_property.get',
  'CAN_PIPE_property.value*',
  'CAN_PIPE_property.exists',
  'CAN_PIPE_property.put',
  'CAN_PIPE_property.schema.put',
  'CAN_PIPE_property.schema.delete',
  'CAN_PIPE_property.delete',
  'CAN_PIPE_property.history.*',
  'CAN_PIPE_property.query',
  'CAN_PIPE_iam.token*',
  'CAN_PIPE_iam.apitoken*',
  'CAN_PIPE_secret.put',
  'CAN_PIPE_secret.get',
  'CAN_PIPE_secret.list',
  'CAN_PIPE_secret.delete',
  'CAN_PIPE_async.*',
  'CAN_PIPE_log.list',
  CAN_RUN_AS_TARGET,
];

/** Developers build apps: every property, pipeline, script, data and messaging command, and IAM reads. */
const DEVELOPER_PERMISSIONS = [
  'CAN_PIPE_property.*',
  'CAN_PIPE_pipeline.*',
  'CAN_PIPE_script.*',
  'CAN_PIPE_drive.*',
  'CAN_PIPE_cache.*',
  'CAN_PIPE_pdf.*',
  'CAN_PIPE_mail.send',
  'CAN_PIPE_delivery.*',
  'CAN_PIPE_sql.query',
  'CAN_PIPE_barcode.*',
  'CAN_PIPE_switch',
  'CAN_PIPE_test.run',
  'CAN_PIPE_mock.command',
  'CAN_PIPE_http.*',
  'CAN_PIPE_event.*',
  'CAN_PIPE_job*',
  'CAN_PIPE_webhook.*',
  'CAN_PIPE_data.*',
  'CAN_PIPE_transform*',
  'CAN_PIPE_json.validate',
  'CAN_PIPE_encrypt',
  'CAN_PIPE_decrypt',
  'CAN_PIPE_config.get',
  'CAN_PIPE_call',
  'CAN_PIPE_iam.user.get',
  'CAN_PIPE_iam.user.list',
  'CAN_PIPE_iam.user.groups',
  'CAN_PIPE_iam.user.roles',
  'CAN_PIPE_iam.group.list',
  'CAN_PIPE_iam.group.list.names',
  'CAN_PIPE_iam.group.roles',
  'CAN_PIPE_iam.search',
  'CAN_PIPE_iam.group.members',
  'CAN_PIPE_iam.role.members',
];

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  {
    name: ROLE_USER,
    description: 'Every signed-in user (given to each new user).',
    composites: USER_PERMISSIONS,
  },
  {
    name: ROLE_DEVELOPER,
    description: 'Builds apps: properties, pipelines, scripts, data and messaging commands.',
    composites: [ROLE_USER, ...DEVELOPER_PERMISSIONS],
  },
  {
    name: ROLE_ADMIN,
    description: 'Administers the instance: holds every permission and sees every folder.',
    composites: [ROLE_DEVELOPER, CAN_RUN_AS_SOURCE],
  },
];
