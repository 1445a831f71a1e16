/** The few methods Java's Number and Boolean offer that users write (intValue, toString, compareTo, ...). */
import { compareValues, deepEquals, toText } from '../values';
import { argNumber, methodTable } from './method-support';

export const NUMBER_METHODS = methodTable<number>({
  intValue: { signature: 'intValue()', doc: 'Truncated to an integer.', call: (n) => Math.trunc(n) },
  longValue: { signature: 'longValue()', doc: 'Truncated to an integer.', call: (n) => Math.trunc(n) },
  doubleValue: { signature: 'doubleValue()', doc: 'The number itself.', call: (n) => n },
  floatValue: { signature: 'floatValue()', doc: 'The number itself.', call: (n) => n },
  compareTo: {
    signature: 'compareTo(other)',
    doc: '-1, 0 or 1.',
    call: (n, a, env) => compareValues(n, argNumber(a, 0, env), env.site),
  },
  equals: { signature: 'equals(other)', doc: 'True when equal.', call: (n, a) => deepEquals(n, a[0]) },
  toString: { signature: 'toString()', doc: 'The number as text.', call: (n) => toText(n) },
});

export const BOOLEAN_METHODS = methodTable<boolean>({
  booleanValue: { signature: 'booleanValue()', doc: 'The boolean itself.', call: (b) => b },
  equals: { signature: 'equals(other)', doc: 'True when equal.', call: (b, a) => deepEquals(b, a[0]) },
  toString: { signature: 'toString()', doc: "'true' or 'false'.", call: (b) => toText(b) },
});
