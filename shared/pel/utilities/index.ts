/** The utilities every expression can call as `@name.fn(...)`, and the specs that document them. */
import type { PelUtilities } from '../types';
import { calcUtility } from './calc';
import { contentUtility } from './content';
import { convertUtility } from './convert';
import { dataUtility } from './data';
import { dateUtility } from './date';
import { functionUtility } from './function';
import { hashUtility } from './hash';
import { iamUtilityDocs } from './iam';
import { instanceUtilityDocs } from './instance';
import { jsonUtility } from './json';
import { listUtility } from './list';
import { pathUtility } from './path';
import { propertyUtilityDocs } from './property';
import { resolveUtility } from './resolve-utilities';
import { scriptUtility } from './script';
import { type UtilitySpec, toUtility } from './support';
import { textUtility } from './text';
import { uriUtility } from './uri';
import { userUtilityDocs } from './user';
import { xmlUtility } from './xml';

export { createUserUtility, type PelUserInfo } from './user';
export { createPropertyUtility, type PelPropertyReader } from './property';
export { createInstanceUtility, type PelInstanceInfo } from './instance';
export { createIamUtility, type PelIamReader } from './iam';
export { type PelUriResolver, type PelUserLookup, URI_SCHEMES, applyUriFilter } from './resolve';
export { createUriUtilities } from './resolve-utilities';
export {
  beginUtilityWork,
  endUtilityWork,
  takeBuilt,
  signaturesOf,
  type UtilitySpec,
  type UtilityFunctionSpec,
} from './support';

/** Every utility with its functions' signatures and docs; the server-provided ones are listed too. */
export const UTILITY_SPECS: readonly UtilitySpec[] = [
  calcUtility,
  contentUtility,
  convertUtility,
  dataUtility,
  dateUtility,
  functionUtility,
  hashUtility,
  jsonUtility,
  listUtility,
  pathUtility,
  resolveUtility,
  scriptUtility,
  textUtility,
  uriUtility,
  xmlUtility,
  userUtilityDocs,
  propertyUtilityDocs,
  instanceUtilityDocs,
  iamUtilityDocs,
];

/** The isomorphic utilities (everything but @user, @property, @instance and @iam, which the server provides). */
export const defaultUtilities: PelUtilities = Object.freeze(
  Object.fromEntries(UTILITY_SPECS.filter((s) => !s.serverProvided).map((s) => [s.name, toUtility(s)])),
);
