/** The utilities every expression can call as `@name.fn(...)`, and the specs that document them. */
import type { PelUtilities } from '../types';
import { calcUtility } from './calc';
import { convertUtility } from './convert';
import { dataUtility } from './data';
import { dateUtility } from './date';
import { hashUtility } from './hash';
import { instanceUtilityDocs } from './instance';
import { jsonUtility } from './json';
import { listUtility } from './list';
import { pathUtility } from './path';
import { propertyUtilityDocs } from './property';
import { type UtilitySpec, toUtility } from './support';
import { textUtility } from './text';
import { uriUtility } from './uri';
import { userUtilityDocs } from './user';

export { createUserUtility, type PelUserInfo } from './user';
export { createPropertyUtility, type PelPropertyReader } from './property';
export { createInstanceUtility, type PelInstanceInfo } from './instance';
export { takeBuilt, type UtilitySpec, type UtilityFunctionSpec } from './support';

/** Every utility with its functions' signatures and docs; the server-provided ones are listed too. */
export const UTILITY_SPECS: readonly UtilitySpec[] = [
  calcUtility,
  convertUtility,
  dataUtility,
  dateUtility,
  hashUtility,
  jsonUtility,
  listUtility,
  pathUtility,
  textUtility,
  uriUtility,
  userUtilityDocs,
  propertyUtilityDocs,
  instanceUtilityDocs,
];

/** The isomorphic utilities (everything but @user, @property and @instance, which the server provides). */
export const defaultUtilities: PelUtilities = Object.freeze(
  Object.fromEntries(UTILITY_SPECS.filter((s) => !s.serverProvided).map((s) => [s.name, toUtility(s)])),
);
