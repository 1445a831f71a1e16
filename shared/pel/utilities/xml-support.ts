/**
 * XML for `@xml` and `@convert`: parsed by @xmldom/xmldom (no external entities: any `<!ENTITY` declaration is
 * refused before parsing), queried by xpath, and converted to and from data by fast-xml-parser.
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import xpath from 'xpath';
import { utilityError } from '../errors';
import { isMapLike } from '../safety';
import { isBinaryContent } from '../../values';
import { typeOf } from '../values';
import { UTILITY_MAX_STRING } from './support';

/** Attributes appear in data as `@name` keys, text beside elements as `#text` (as fast-xml-parser writes them). */
const DATA_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  processEntities: false,
  htmlEntities: false,
} as const;

/** XML text from text, bytes or data (a map built to XML). */
export function xmlTextOf(fn: string, source: unknown): string {
  if (typeof source === 'string') return source;
  if (isBinaryContent(source)) return new TextDecoder().decode(source.data);
  if (isMapLike(source) || Array.isArray(source)) return new XMLBuilder(DATA_OPTIONS).build(source) as string;
  throw utilityError(`${fn}: expected XML (text, bytes or a map), got a ${typeOf(source)}`);
}

/** A DTD may declare entities, which could read files or expand without bound: refused outright. */
function refuseEntities(fn: string, xml: string): void {
  if (xml.length > UTILITY_MAX_STRING) throw utilityError(`${fn}: the XML is too long`);
  if (/<!ENTITY/i.test(xml))
    throw utilityError(`${fn}: XML with entity declarations (<!ENTITY) is not accepted`);
}

export function parseXmlDocument(fn: string, source: unknown): Document {
  const xml = xmlTextOf(fn, source);
  refuseEntities(fn, xml);
  const errors: string[] = [];
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(xml, 'text/xml') as unknown as Document;
  } catch (e) {
    throw utilityError(`${fn}: not well-formed XML (${(e as Error).message.split('\n')[0]})`);
  }
  if (errors.length > 0) throw utilityError(`${fn}: not well-formed XML (${errors[0]!.split('\n')[0]})`);
  return doc;
}

/** A node as a PEL value: elements (and documents) as their XML text, attributes and text as their value. */
function nodeValue(node: Node): string {
  if (node.nodeType === 1 || node.nodeType === 9) return new XMLSerializer().serializeToString(node as never);
  return node.nodeValue ?? node.textContent ?? '';
}

function select(fn: string, doc: Document, expression: string): xpath.SelectReturnType {
  try {
    return xpath.select(expression, doc as never);
  } catch (e) {
    throw utilityError(`${fn}: invalid XPath '${expression}' (${(e as Error).message})`);
  }
}

/** Node sets as a list of values; numbers, texts and booleans as they are. */
export function evaluateXPath(fn: string, source: unknown, expression: string): unknown {
  const result = select(fn, parseXmlDocument(fn, source), expression);
  return Array.isArray(result) ? result.map((n) => nodeValue(n as Node)) : result;
}

/** The string value: of the first node of a node set ('' when none), or of a number or boolean. */
export function evaluateXPathText(fn: string, source: unknown, expression: string): string {
  const result = select(fn, parseXmlDocument(fn, source), expression);
  if (Array.isArray(result)) return result.length === 0 ? '' : ((result[0] as Node).textContent ?? '');
  return String(result);
}

/** XML text as data (`@attr` and `#text` keys), for `@convert.toDOM` and `@convert.toMap` of XML. */
export function xmlToData(fn: string, source: unknown): unknown {
  const xml = xmlTextOf(fn, source);
  parseXmlDocument(fn, xml);
  return new XMLParser(DATA_OPTIONS).parse(xml) as unknown;
}
