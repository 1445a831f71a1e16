export { BinaryContent, isBinaryContent } from './binary-content';
export { jsonDepthExceeds } from './json-depth';
