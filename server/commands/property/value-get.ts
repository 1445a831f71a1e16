/** `property.value.get`: the value of a property as a pipeline uses it (JSON parsed, bytes decoded, text as text). */
import { defineCommand } from '../../../shared/commands';
import { decodePropertyValue } from '../../../shared/property';
import type { ServerServices } from '../../services';
import { DECRYPT_PARAMETER, textsOf } from './encrypted-values';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyValueGet = defineCommand<ServerServices>(
  {
    name: 'property.value.get',
    summary:
      'Returns the value of a property: JSON parsed, base64 content as bytes of its type, else the text.',
    parameters: { ...KEY_OR_PATH, decrypt: DECRYPT_PARAMETER },
    defaultParameter: 'key',
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Use a config value',
        pipeline: 'pipeline:\n  - property.value.get: global/app/myapp/config/app\n',
      },
    ],
  },
  async (ctx) => {
    const properties = propertiesOf(ctx);
    const property = await properties.get(ctx.principal, keyOf(ctx));
    if (!properties.isEncrypted(property)) return decodePropertyValue(property);
    // The sealed form is text (JSON of its own), whatever type the plain value has.
    if (ctx.params.decrypt === false) return property.value;
    const value = decodePropertyValue(properties.decrypted(property));
    // The caller gets it; the run history (traces, recorded bodies) keeps it masked.
    ctx.services.run?.mask.registerForRecords(...textsOf(value));
    return value;
  },
);
