/** The command reference: the workbench shell mounts `CommandReference`. */
export { CommandReference } from './CommandReference';
