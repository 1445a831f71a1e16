/** The services a run's commands get (`ctx.services`): views of the server's services that know their run. */
import type { ServerServices } from '../services';
import type { RunScope } from './run-scope';

/**
 * The services as a run's commands see them: the same services, knowing their run. A view whose prototype
 * is the services (copying thirty members for every run showed in the profile): derive another view with
 * `servicesWith`, never with a spread, which would copy only the view's own members.
 */
export function servicesInRun(services: ServerServices, run: RunScope): ServerServices {
  return servicesWith(services, { run });
}

/** A view of the services with some members replaced (a run's, a test's). */
export function servicesWith(services: ServerServices, members: Partial<ServerServices>): ServerServices {
  return Object.assign(Object.create(services) as ServerServices, members);
}
