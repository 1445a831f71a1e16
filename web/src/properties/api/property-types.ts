/** The property store's shapes as the API returns them (see docs/property-store.md), from the shared core. */
export type { Property, PropertyAttachment as Attachment } from '../../../../shared/property/property';

/** One entry of a folder listing: a property (a key) or a sub-folder (path without the trailing `/`). */
export interface TreeEntry {
  path: string;
  name: string;
  folder: boolean;
}
