/**
 * The catalogue of attack requests run against the real server by attack-catalogue.test.ts, grouped by what
 * they attack.
 */
import type { HttpAttack } from './attack';
import { AUTHENTICATION } from './authentication';
import { AUTHORIZATION } from './authorization';
import { INJECTION } from './injection';
import { OVERSIZED } from './oversized';
import { TRAVERSAL } from './traversal';

export { HTTP_SHAPES } from './http-shapes';
export { SECRET_OF_BEN, USER_PASSWORD, type AttackWorld, type HttpAttack, type RawAttack } from './attack';

export const HTTP_ATTACK_GROUPS: [string, HttpAttack[]][] = [
  ['authentication', AUTHENTICATION],
  ['authorization across user, group and tenant folders', AUTHORIZATION],
  ['injection into expressions', INJECTION],
  ['traversal', TRAVERSAL],
  ['oversized, nested and malformed bodies', OVERSIZED],
];
