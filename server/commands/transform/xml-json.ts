/**
 * `transform.xml.json` and `transform.json.xml` (fast-xml-parser): attributes as `@name`, text beside
 * them as `#text`. The five predefined entities (`&lt;` ...) and character references (`&#60;`, `&#x3c;`) are
 * decoded; entities a DOCTYPE declares are never expanded (no entity tricks, no billion laughs) and stay as
 * written. The nesting depth is bounded.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { inputJson, inputText } from './input-text';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references in one pass; any other `&name;` stays as written. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g,
    (whole, name, dec, hex) => {
      if (name) return PREDEFINED[name as string]!;
      const code = dec !== undefined ? Number(dec) : Number.parseInt(hex as string, 16);
      const allowed =
        code === 0x9 ||
        code === 0xa ||
        code === 0xd ||
        (code >= 0x20 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff));
      return allowed ? String.fromCodePoint(code) : whole;
    },
  );
}

const decodeValue = (_name: string, value: unknown) =>
  typeof value === 'string' ? decodeXmlText(value) : value;

const XML_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: 200,
} as const;

export const xmlToJson = defineCommand(
  {
    name: 'transform.xml.json',
    summary: 'Reads XML text into JSON: elements as fields, attributes as `@name`, mixed text as `#text`.',
    parameters: {
      types: {
        type: 'boolean',
        default: false,
        description: 'Reads numbers and true/false in element text as such; false keeps text.',
      },
    },
    input: 'text',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'An order in XML',
        pipeline:
          'body: \'<order id="7"><item>pen</item><item>book</item></order>\'\npipeline:\n  - transform.xml.json\n',
      },
    ],
  },
  (ctx) => {
    const text = inputText(ctx.input, 'transform.xml.json', 'XML');
    const valid = XMLValidator.validate(text);
    if (valid !== true) {
      throw new PipeworkError(
        'BAD_REQUEST',
        `transform.xml.json: the input is not well-formed XML (${valid.err.msg}, line ${valid.err.line}).`,
        { line: valid.err.line, column: valid.err.col },
      );
    }
    const types = ctx.params.types === true;
    try {
      return new XMLParser({
        ...XML_OPTIONS,
        parseTagValue: types,
        parseAttributeValue: types,
        tagValueProcessor: decodeValue,
        attributeValueProcessor: decodeValue,
      }).parse(text);
    } catch (error) {
      throw new PipeworkError('BAD_REQUEST', `transform.xml.json: ${(error as Error).message}`);
    }
  },
);

const XML_NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;

/** Every field name must be an XML name, so no key can write markup of its own. */
function checkNames(value: unknown, depth = 0): void {
  if (depth > 200)
    throw new PipeworkError('BAD_REQUEST', 'transform.json.xml: the JSON is nested too deeply.');
  if (Array.isArray(value)) {
    for (const item of value) checkNames(item, depth + 1);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    const name = key.startsWith('@') ? key.slice(1) : key;
    if (key !== '#text' && !XML_NAME.test(name)) {
      throw new PipeworkError('BAD_REQUEST', `transform.json.xml: '${key.slice(0, 60)}' is not an XML name.`);
    }
    checkNames(child, depth + 1);
  }
}

export const jsonToXml = defineCommand(
  {
    name: 'transform.json.xml',
    summary: 'Writes JSON as XML text: fields as elements, `@name` fields as attributes, `#text` as text.',
    parameters: {
      root: {
        type: 'string',
        pattern: '^[A-Za-z_][\\w.-]*$',
        description: 'Wraps the result in this element (needed when the JSON has several top-level fields).',
      },
      format: { type: 'boolean', default: true, description: 'Indents the XML.' },
    },
    input: 'json',
    output: 'text',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'An order as XML',
        pipeline: "body: {order: {'@id': 7, item: [pen, book]}}\npipeline:\n  - transform.json.xml\n",
      },
    ],
  },
  (ctx) => {
    const data = inputJson(ctx.input, 'transform.json.xml');
    const root = typeof ctx.params.root === 'string' && ctx.params.root ? ctx.params.root : undefined;
    const value = root ? { [root]: data } : data;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new PipeworkError(
        'BAD_REQUEST',
        'transform.json.xml needs a map (or a `root` element to wrap the value in).',
      );
    }
    checkNames(value);
    // processEntities here means: escape &, <, > and quotes in what is written.
    const builder = new XMLBuilder({
      ...XML_OPTIONS,
      processEntities: true,
      format: ctx.params.format !== false,
      suppressBooleanAttributes: false,
    });
    return String(builder.build(value));
  },
);
