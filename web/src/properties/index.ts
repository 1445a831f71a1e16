/** The property tree: the workbench shell mounts `PropertyExplorer`. */
export { PropertyExplorer } from './PropertyExplorer';
