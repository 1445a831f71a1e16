/**
 * The `attachments` and `tags` parameters of `property.schema.put`. Attachments are loaded and checked before
 * the property is written, so a missing file or a bad name stores nothing; tags are parsed before it too.
 */
import type { JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { checkAttachmentName, type PropertyTags } from '../../../shared/property';
import { parseTagList } from '../../store/property-marks-service';
import { isBinaryContent } from '../../../shared/values';
import { isCustomUriText } from '../../../shared/uri/custom-uri';
import { parseUriParameter, resolveParsedUri, uriValueAsText } from '../../uri/resolve-uri';
import type { PropertyContext } from './property-command-support';

/** At most this many attachments per call (each is loaded into memory before the write). */
const MAX_ATTACHMENTS = 20;

export const ATTACHMENTS_PARAMETER: JsonSchema = {
  description:
    'Attachments to add to the property: $uri:drive:<path> or $uri:property:<key> references (a list, or ' +
    'comma-separated), or an expression giving a file or a collection of files, e.g. #{body}. Each replaces an ' +
    'attachment of the same name; others stay. Loaded before the property is written: one that cannot be ' +
    'loaded stores nothing. Not applied when existStrategy skip finds the key taken.',
};

export const TAGS_PARAMETER: JsonSchema = {
  description:
    'Tags to add to the property: name1:value1, name2:value2 (a list of such items, or an object of names to ' +
    'values, is taken too). Added to the tags it has; not applied when existStrategy skip finds the key taken.',
};

export interface AttachmentToAdd {
  name: string;
  mimeType?: string;
  data: Uint8Array;
}

function invalid(message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', `Parameter 'attachments': ${message}`, {
    parameter: 'attachments',
  });
}

/** The `tags` parameter as name to value; PARAM_INVALID for a shape it cannot be (checked before any write). */
export function tagsToAdd(ctx: PropertyContext): PropertyTags {
  const tags = ctx.params.tags;
  if (tags === undefined || tags === null || tags === '') return {};
  if (typeof tags === 'string') return parseTagList(tags);
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) return parseTagList(tags.join(','));
  if (typeof tags === 'object' && !Array.isArray(tags)) {
    const out: PropertyTags = {};
    for (const [name, value] of Object.entries(tags as Record<string, unknown>)) {
      out[name] = value === null || value === undefined ? '' : String(value);
    }
    return out;
  }
  throw new PipeworkError('PARAM_INVALID', "Parameter 'tags': write name1:value1, name2:value2.", {
    parameter: 'tags',
  });
}

async function fromReference(ctx: PropertyContext, reference: string): Promise<AttachmentToAdd> {
  if (!isCustomUriText(reference)) {
    throw invalid(`'${reference.slice(0, 200)}' is not a $uri:drive: or $uri:property: reference.`);
  }
  const uri = parseUriParameter(reference, 'attachments', ['drive', 'property']);
  const value = await resolveParsedUri(ctx, uri, 'attachments');
  const lastSegment = ('path' in uri ? uri.path : 'key' in uri ? uri.key : '').split('/').pop() ?? '';
  if (isBinaryContent(value)) {
    return { name: value.name || lastSegment, mimeType: value.mimeType, data: value.data };
  }
  const json = typeof value !== 'string';
  return {
    name: lastSegment,
    mimeType: json ? 'application/json' : 'text/plain',
    data: new TextEncoder().encode(uriValueAsText(value)),
  };
}

/** The attachments the `attachments` parameter names, loaded and checked (names, count); [] when absent. */
export async function attachmentsToAdd(ctx: PropertyContext): Promise<AttachmentToAdd[]> {
  const param = ctx.params.attachments;
  if (param === undefined || param === null || param === '') return [];
  const out: AttachmentToAdd[] = [];
  for (const item of Array.isArray(param) ? param : [param]) {
    if (isBinaryContent(item)) {
      if (!item.name) throw invalid(`file ${out.length} has no name.`);
      out.push({ name: item.name, mimeType: item.mimeType, data: item.data });
    } else if (typeof item === 'string') {
      for (const reference of item.split(',').map((r) => r.trim()))
        if (reference !== '') out.push(await fromReference(ctx, reference));
    } else throw invalid('give $uri: references or files (bytes with a name).');
    if (out.length > MAX_ATTACHMENTS) throw invalid(`at most ${MAX_ATTACHMENTS} attachments per call.`);
  }
  const names = new Set<string>();
  for (const attachment of out) {
    try {
      checkAttachmentName(attachment.name);
    } catch {
      throw invalid(`'${attachment.name.slice(0, 200)}' is not a valid attachment name.`);
    }
    if (names.has(attachment.name)) throw invalid(`the name '${attachment.name}' is given twice.`);
    names.add(attachment.name);
  }
  return out;
}
