/** The react-query keys of the tree's data, in one place so events can refresh exactly what changed. */

/** A folder's children; '' is the top level. */
export const childrenQueryKey = (folder: string) => ['property-children', folder] as const;
export const propertyQueryKey = (key: string) => ['property', key] as const;
export const attachmentsQueryKey = (key: string) => ['property-attachments', key] as const;
/** All wildcard searches, or one. */
export const searchQueryKey = (pattern?: string) =>
  pattern === undefined ? (['property-search'] as const) : (['property-search', pattern] as const);
