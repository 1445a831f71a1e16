/** The property store's shapes as the API returns them (see docs/property-store.md). */

export interface Property {
  uuid: string;
  key: string;
  value: string | null;
  type: string;
  created: number;
  updated: number | null;
  timeToLive: number | null;
  defaultValue?: unknown;
  version: number;
}

export interface Attachment {
  uuid: string;
  name: string;
  contentType: string;
  length: number;
  chunks: number;
  created: number;
  updated: number | null;
}

/** One entry of a folder listing: a property (a key) or a sub-folder (path without the trailing `/`). */
export interface TreeEntry {
  path: string;
  name: string;
  folder: boolean;
}
