/** `@instance`: what a pipeline may know of the server it runs on (its profiles, e.g. to skip setup in tests). */
import { createInstanceUtility, type PelUtilities } from '../../shared/pel';
import type { ServerServices } from '../services';

export function instanceUtilityFactory(_principal: unknown, services: ServerServices): PelUtilities {
  const { profiles, realm } = services.config;
  return { instance: createInstanceUtility({ profiles, name: realm }) };
}
