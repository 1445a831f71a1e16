/** The method allowlist per runtime type: the only methods an expression can call on a value. */
export { BOOLEAN_METHODS, NUMBER_METHODS } from './scalar-methods';
export { LIST_METHODS } from './list-methods';
export { MAP_METHODS } from './map-methods';
export { STRING_METHODS } from './string-methods';
export type { MethodEnv, MethodSpec, MethodTable } from './method-support';
