/** The isomorphic utilities every expression can call as `@name.fn(...)`. */
import type { PelUtilities } from '../types';

export const defaultUtilities: PelUtilities = Object.freeze({});
