/** `iam.user.create`: creates a user (optionally with password, groups and roles) and returns its uuid. */
import { defineCommand } from '../../../shared/commands';
import { attributesJsonOf } from './attributes';
import { assertMayGrant, assertMayShareMembership } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString, stringParam } from './iam-command-support';

export const iamUserCreate = defineCommand<ServerServices>(
  {
    name: 'iam.user.create',
    summary:
      'Creates a new user and returns its uuid in the body. Throws CONFLICT if the user already exists.',
    parameters: {
      name: { type: 'string', description: 'The unique username.' },
      email: { type: 'string', description: 'The unique email.' },
      firstName: { type: 'string', description: 'The optional first name.' },
      lastName: { type: 'string', description: 'The optional last name.' },
      groupNames: {
        ...NAME_LIST,
        description: 'The optional groups the user joins (comma separated or a list).',
      },
      roleNames: {
        ...NAME_LIST,
        description: 'The optional roles the user gets (ROLE_USER is always given).',
      },
      password: {
        type: 'string',
        description: 'The password; without one the user cannot log in until one is set.',
      },
      attributes: { type: ['string', 'object'], description: 'A map of optional attributes (JSON).' },
    },
    required: ['name'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
    examples: [
      {
        title: 'Create a developer',
        pipeline:
          'pipeline:\n  - iam.user.create:\n      name: alice\n      email: alice@example.com\n      password: "s3cret!"\n      roleNames: ROLE_DEVELOPER\n',
      },
    ],
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const roles = namesParam(ctx, 'roleNames');
    const groups = namesParam(ctx, 'groupNames');
    const caller = callerOf(ctx);
    await assertMayGrant(caller, iam.roles, roles);
    for (const group of groups) {
      const row = await iam.groups.require({ name: group });
      assertMayShareMembership(caller, 'group', row);
      await assertMayGrant(caller, iam.roles, await iam.roles.effectiveGroupRoleNames(row.uuid));
    }
    const principal = await iam.createUser({
      username: requiredString(ctx, 'name'),
      email: stringParam(ctx, 'email'),
      firstName: stringParam(ctx, 'firstName'),
      lastName: stringParam(ctx, 'lastName'),
      password: stringParam(ctx, 'password'),
      roles,
      groups,
      attributes: attributesJsonOf(ctx.params.attributes),
    });
    return { userUuid: principal.uuid, uuid: principal.uuid, username: principal.username };
  },
);
