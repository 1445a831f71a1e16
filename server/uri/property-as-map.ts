/** A property as the real product shows it to a `$uri:property:<key>@attribute` filter and to `resolve`. */
import { decodePropertyValue, type Property, type PropertyAttachment } from '../../shared/property';

export function propertyAsMap(
  property: Property,
  attachments: readonly PropertyAttachment[],
): Record<string, unknown> {
  return {
    path: `/${property.key}`,
    key: property.key,
    uuid: property.uuid,
    type: property.type,
    value: decodePropertyValue(property),
    defaultValue: property.defaultValue,
    created: property.created,
    updated: property.updated,
    timeToLive: property.timeToLive,
    version: property.version,
    attachments: attachments.map((a) => ({
      uuid: a.uuid,
      name: a.name,
      size: a.length,
      contentType: a.contentType,
      created: a.created,
      updated: a.updated,
    })),
  };
}
