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
import { UTILITY_MAX_STRING, spendUtilityWork, withUtilityWork } from './support';
import { PipeworkError, isPipeworkError } from '../../errors';

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
  if (node.nodeType === 1 || node.nodeType === 9) {
    const text = new XMLSerializer().serializeToString(node as never);
    spendUtilityWork(1 + (text.length >> 6));
    return text;
  }
  return node.nodeValue ?? node.textContent ?? '';
}

/** The parts of xpath's parsed expressions we use (its typings cover `select` only). */
interface XPathValue {
  nodeset?: () => { toArray(): Node[] };
  stringValue(): string;
  numberValue(): number;
  booleanValue(): boolean;
}
interface ParsedXPath {
  expression: object;
  evaluate(options: { node: Node }): XPathValue;
}
const {
  parse: parseXPath,
  XNodeSet,
  XNumber,
  XBoolean,
} = xpath as unknown as {
  parse(expression: string): ParsedXPath;
  XNodeSet: new () => XPathValue;
  XNumber: new () => XPathValue;
  XBoolean: new () => XPathValue;
};

/** What xpath's node sets hold (its typings do not show them). */
interface NodeSetInternals {
  nodes: Node[];
  size: number;
  tree: unknown;
  add(node: Node): void;
  addArray(nodes: Node[]): void;
}

/**
 * xpath's node sets drop duplicates by scanning every node already held for each node added: every
 * location step over 40,000 siblings made 800 million comparisons, outside any budget. `addArray` keeps
 * the same result (first occurrence kept, in order) with a Set, and both spend the call's work budget.
 */
function fixNodeSetAdd(): void {
  const proto = (XNodeSet as unknown as { prototype: NodeSetInternals }).prototype;
  const add = proto.add;
  proto.add = function addMetered(this: NodeSetInternals, node: Node): void {
    spendUtilityWork(1 + (this.nodes.length >> 6));
    add.call(this, node);
  };
  proto.addArray = function addArrayOnce(this: NodeSetInternals, nodes: Node[]): void {
    spendUtilityWork(1 + nodes.length);
    const held = new Set<Node>(this.nodes);
    for (const node of nodes) {
      if (held.has(node)) continue;
      held.add(node);
      this.nodes.push(node);
      this.size += 1;
      this.tree = null;
    }
  };
}
fixNodeSetAdd();

/** Parts of the parsed expression already metered (node tests such as `node()` are shared by all). */
const metered = new WeakSet<object>();

/**
 * Wraps `evaluate` (of every operator, path, predicate and function call) and `matches` (of every node
 * test, called once per node an axis visits) in the parsed expression, so an evaluation spends one step of
 * the utility call's work budget for each: a predicate that walks the whole document for every node ends
 * with a catalogued error instead of holding the event loop.
 */
function meter(root: object): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const part = stack.pop()!;
    if (metered.has(part)) continue;
    metered.add(part);
    const record = part as Record<string, unknown>;
    for (const method of ['evaluate', 'matches'] as const) {
      const original = record[method];
      if (typeof original !== 'function') continue;
      record[method] = function meteredStep(this: unknown, ...args: unknown[]): unknown {
        spendUtilityWork(1);
        return Reflect.apply(original, this, args) as unknown;
      };
    }
    for (const value of Object.values(record))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
}

type Selected = Node[] | string | number | boolean;

function isA(value: XPathValue, type: new () => XPathValue): boolean {
  return value instanceof type;
}

const DOCUMENT_POSITION_PRECEDING = 2;
const DOCUMENT_POSITION_FOLLOWING = 4;

/**
 * Numbers every node of the document in document order (an element before its attributes, then its
 * children) and gives each a `compareDocumentPosition` that compares the numbers. xpath sorts every node
 * set by it, and xmldom's own walks the common ancestor's children each time: with 4,000 siblings a single
 * step took seconds. Only the order bits xpath reads are answered (preceding or following; an ancestor
 * precedes, a descendant follows).
 */
function numberInDocumentOrder(doc: Document): void {
  const order = new WeakMap<object, number>();
  const compare = function compareDocumentPosition(this: Node, other: Node): number {
    spendUtilityWork(1);
    const a = order.get(this);
    const b = order.get(other);
    if (this === other) return 0;
    if (a === undefined || b === undefined) {
      // A node xpath made itself (a namespace node): xmldom's own answer.
      const own = (Object.getPrototypeOf(this) as Node).compareDocumentPosition;
      return own.call(this, other);
    }
    return b < a ? DOCUMENT_POSITION_PRECEDING : DOCUMENT_POSITION_FOLLOWING;
  };
  let next = 0;
  const stack: Node[] = [doc as unknown as Node];
  while (stack.length > 0) {
    const node = stack.pop()!;
    spendUtilityWork(1);
    order.set(node, next++);
    (node as { compareDocumentPosition: unknown }).compareDocumentPosition = compare;
    const attributes = (node as Partial<Element>).attributes;
    if (attributes) {
      for (let i = 0; i < attributes.length; i++) {
        const attribute = attributes[i]!;
        order.set(attribute, next++);
        (attribute as { compareDocumentPosition: unknown }).compareDocumentPosition = compare;
      }
    }
    for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
  }
}

function select(fn: string, doc: Document, expression: string): Selected {
  let parsed: ParsedXPath;
  try {
    parsed = parseXPath(expression);
  } catch (e) {
    throw utilityError(`${fn}: invalid XPath '${expression}' (${(e as Error).message})`);
  }
  meter(parsed.expression);
  numberInDocumentOrder(doc);
  try {
    const value = parsed.evaluate({ node: doc as unknown as Node });
    if (isA(value, XNodeSet)) return value.nodeset!().toArray();
    if (isA(value, XNumber)) return value.numberValue();
    if (isA(value, XBoolean)) return value.booleanValue();
    return value.stringValue();
  } catch (e) {
    if (isPipeworkError(e)) throw e;
    throw utilityError(`${fn}: invalid XPath '${expression}' (${(e as Error).message})`);
  }
}

/**
 * Characters of a document XPath runs over: xmldom parses about a character per microsecond, in one
 * stretch that no budget can cut, so a larger document would hold the event loop past a slice.
 */
export const XPATH_MAX_XML = 200_000;

function parseForXPath(fn: string, source: unknown): Document {
  const xml = xmlTextOf(fn, source);
  if (xml.length > XPATH_MAX_XML)
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `${fn}: the XML has ${xml.length} characters, more than the ${XPATH_MAX_XML} XPath runs over`,
      { reason: 'XML_TOO_LARGE' },
    );
  return parseXmlDocument(fn, xml);
}

/** Node sets as a list of values; numbers, texts and booleans as they are. */
export function evaluateXPath(fn: string, source: unknown, expression: string): unknown {
  return withUtilityWork(() => {
    const result = select(fn, parseForXPath(fn, source), expression);
    return Array.isArray(result) ? result.map((n) => nodeValue(n)) : result;
  });
}

/** The string value: of the first node of a node set ('' when none), or of a number or boolean. */
export function evaluateXPathText(fn: string, source: unknown, expression: string): string {
  return withUtilityWork(() => {
    const result = select(fn, parseForXPath(fn, source), expression);
    if (Array.isArray(result)) return result.length === 0 ? '' : (result[0]!.textContent ?? '');
    return String(result);
  });
}

/** XML text as data (`@attr` and `#text` keys), for `@convert.toDOM` and `@convert.toMap` of XML. */
export function xmlToData(fn: string, source: unknown): unknown {
  const xml = xmlTextOf(fn, source);
  parseXmlDocument(fn, xml);
  return new XMLParser(DATA_OPTIONS).parse(xml) as unknown;
}
