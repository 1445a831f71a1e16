import { expect, it } from 'vitest';
import { searchPattern } from './key-pattern';

it.each([
  ['', null],
  ['   ', null],
  ['global/app/*/pipeline/*', 'global/app/*/pipeline/*'],
  ['/global/**', 'global/**'],
  ['invoice', '**/*invoice*'],
  ['global/app/x', 'global/app/x'],
])('the search %j means the pattern %j', (text, pattern) => {
  expect(searchPattern(text)).toBe(pattern);
});
