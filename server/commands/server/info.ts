/** `server.info`: the flat JSON the real product answers: status, namespace, domain, edition, stage, version parts. */
import { defineCommand } from '../../../shared/commands';
import { instanceInfo } from '../../pipeline/instance-utility';
import type { ServerServices } from '../../services';

export const serverInfo = defineCommand<ServerServices>(
  {
    name: 'server.info',
    effect: 'read',
    audience: 'admin',
    summary:
      'Returns information about the server: status, namespace, domain, edition, stage, tag, build, version, ' +
      'versionMajor, versionMinor, versionBugfix.',
    parameters: {},
    input: 'any',
    output: 'json',
    permission: 'CAN_PIPE_server.info',
  },
  (ctx) => {
    const info = instanceInfo(ctx.services);
    const version = info.version ?? '0.0.0';
    const [major, minor, bugfix] = version.split(/[.+-]/).map((part) => Number.parseInt(part, 10));
    return {
      status: 'UP',
      namespace: info.namespace,
      domain: info.domain,
      edition: info.edition,
      stage: info.stage,
      tag: version,
      build: null,
      version,
      versionMajor: Number.isFinite(major) ? major : 0,
      versionMinor: Number.isFinite(minor) ? minor : 0,
      versionBugfix: Number.isFinite(bugfix) ? bugfix : 0,
    };
  },
);
