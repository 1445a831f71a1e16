/** The Secrets view: the workbench shell mounts `SecretsView` as a sidebar tab. */
export { SecretsView } from './SecretsView';
