export {
  BinaryContent,
  type ContentObjectJson,
  type ContentSource,
  isBinaryContent,
  isContentObjectJson,
  isContentCollection,
  singleContentOf,
} from './binary-content';
export { jsonDepthExceeds } from './json-depth';
export { stringifyBounded, describeJsonRefusal, type BoundedJson } from './bounded-json';
export { textPosition } from './text-position';
