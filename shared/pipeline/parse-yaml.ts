/** The YAML front end: `*.pi.yaml` text to the pipeline model, with line and column for every fault. */
import {
  type Document,
  isAlias,
  isMap as isYamlMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
  Scalar,
  visit,
  type YAMLError,
  type YAMLMap,
} from 'yaml';
import { buildScript, type DocumentPath, type SourceLocator } from './build-script';
import { loadYamlFast } from './fast-yaml';
import { withLazyPositions } from './lazy-positions';
import { checkSourceLength, isTooDeep, PIPELINE_LIMITS, tooDeepMessage } from './limits';
import type { PipelineScript, ScalarSource, ScalarStyle, SourcePosition } from './model';
import { quote, syntaxError, unexpected } from './syntax-error';

const STYLES: Record<string, ScalarStyle> = {
  [Scalar.PLAIN]: 'plain',
  [Scalar.QUOTE_SINGLE]: 'single',
  [Scalar.QUOTE_DOUBLE]: 'double',
  [Scalar.BLOCK_LITERAL]: 'literal',
  [Scalar.BLOCK_FOLDED]: 'folded',
};

type Parsed = Document.Parsed;

class YamlLocator implements SourceLocator {
  constructor(
    private readonly doc: Parsed,
    private readonly text: string,
    private readonly lines: LineCounter,
  ) {}

  at(offset: number): SourcePosition {
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  /** Each map's pairs by key text, built once: a lookup per path stays constant-time in maps of any width. */
  private readonly pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();

  private pairsOf(map: YAMLMap): Map<string, Pair> {
    let index = this.pairIndexes.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items as Pair[]) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        if (!index.has(name)) index.set(name, pair);
      }
      this.pairIndexes.set(map, index);
    }
    return index;
  }

  private deref(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  /** The key and value nodes at a path (aliases followed). */
  private find(path: DocumentPath): { key?: unknown; value?: unknown } {
    let value: unknown = this.doc.contents;
    let key: unknown;
    for (const segment of path) {
      const node = this.deref(value);
      if (isYamlMap(node)) {
        const pair = this.pairsOf(node).get(String(segment));
        if (!pair) return {};
        key = pair.key;
        value = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        key = undefined;
        value = node.items[segment];
      } else {
        return {};
      }
    }
    return { key, value };
  }

  private startOf(node: unknown): SourcePosition | undefined {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? this.at(range[0]) : undefined;
  }

  keyAt(path: DocumentPath): SourcePosition | undefined {
    return this.startOf(this.find(path).key);
  }

  valueAt(path: DocumentPath): SourcePosition | undefined {
    const { key, value } = this.find(path);
    const valueRange = (value as { range?: [number, number, number] } | null)?.range;
    // An empty value (`message:`) is a zero-length scalar after the key: point at the key instead.
    if (key && (!valueRange || valueRange[0] === valueRange[1])) return this.startOf(key);
    return this.startOf(value);
  }

  scalarAt(path: DocumentPath): ScalarSource | undefined {
    const node = this.find(path).value;
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
    const style = STYLES[node.type ?? ''];
    if (!style) return undefined;
    return { style, start: this.at(node.range[0]), raw: this.text.slice(node.range[0], node.range[1]) };
  }
}

/**
 * Walks the node tree without recursion and returns the first node that is nested deeper than
 * `maxDepth`, or a key that is a map or list (JavaScript objects cannot have those), if any.
 */
function findShapeFault(doc: Parsed, text: string): { node: Node; message: string } | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isYamlMap(node) && !isSeq(node)) continue;
    if (depth > PIPELINE_LIMITS.maxDepth) return { node, message: tooDeepMessage() };
    // Duplicate keys are found here, one set per map, rather than by `yaml`'s uniqueKeys, which compares each
    // key with every earlier one: quadratic, minutes for a map of 60,000 keys.
    const seen = isYamlMap(node) ? new Set<unknown>() : undefined;
    for (const item of node.items as unknown[]) {
      if (!isPair(item)) {
        stack.push([item, depth + 1]);
        continue;
      }
      const key: unknown = isAlias(item.key) ? item.key.resolve(doc) : item.key;
      if (isYamlMap(key) || isSeq(key)) {
        return {
          node: item.key as Node,
          message: `A key must be a name, not a ${isSeq(key) ? 'list' : 'map'}`,
        };
      }
      const name = isScalar(key) ? key.value : key;
      if (seen?.has(name)) {
        const at = (item.key as Node).range?.[0] ?? 0;
        return { node: item.key as Node, message: `Duplicate key ${quote(keyTextAt(text, at))}` };
      }
      seen?.add(name);
      stack.push([item.value, depth + 1]);
    }
  }
  return undefined;
}

/** The alias to point at when conversion fails: the unresolved one named in the error, or the first. */
function findAlias(root: unknown, error: unknown): Node | undefined {
  const named = error instanceof Error ? /Unresolved alias.*: (\S+)$/.exec(error.message)?.[1] : undefined;
  const stack: unknown[] = [root];
  let found: Node | undefined;
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) {
      if (named !== undefined && node.source !== named) continue;
      if (!found || (node.range?.[0] ?? 0) < (found.range?.[0] ?? 0)) found = node;
    } else if (isYamlMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push(item.key, item.value);
        else stack.push(item);
      }
    }
  }
  return found;
}

/** The text of the key at an offset (for "Duplicate key 'x'"), read from the source. */
function keyTextAt(text: string, offset: number): string {
  const rest = text.slice(offset, offset + 200);
  const match = /^(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\n]|'')*)'|([^:\n]*?))\s*:/.exec(rest);
  return (match?.[1] ?? match?.[2]?.replace(/''/g, "'") ?? match?.[3] ?? rest.split('\n')[0]!).trim();
}

/** The quoted scalar that an error at `offset` left unclosed, if any. */
function unclosedQuote(doc: Parsed, offset: number): Scalar | undefined {
  let found: Scalar | undefined;
  visit(doc, {
    Scalar(_, node) {
      const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
      if (quoted && node.range?.[1] === offset) {
        found = node;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function describeYamlError(error: YAMLError, doc: Parsed, text: string, locator: YamlLocator) {
  const at = locator.at(error.pos[0]);
  if (error.code === 'MISSING_CHAR' && /closing .?quote/i.test(error.message)) {
    const open = unclosedQuote(doc, error.pos[0]);
    if (open?.range) {
      const mark = open.type === Scalar.QUOTE_DOUBLE ? '"' : "'";
      return syntaxError(`Missing closing ${mark} of the string`, locator.at(open.range[0]), {
        hint: `it runs to ${at.line}:${at.column}`,
      });
    }
  }
  if (/call stack/i.test(error.message)) return syntaxError(tooDeepMessage(), at);
  if (error.code === 'DUPLICATE_KEY')
    return syntaxError(`Duplicate key ${quote(keyTextAt(text, error.pos[0]))}`, at);
  // With prettyErrors the message ends with " at line L, column C:" and a quote of the source: drop both.
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return syntaxError(message, at, { details: { yamlCode: error.code } });
}

/** A locator for data read without positions: every position is unknown (computed later, if read). */
const NO_POSITIONS: SourceLocator = {
  keyAt: () => undefined,
  valueAt: () => undefined,
  scalarAt: () => undefined,
};

export interface YamlParseOptions {
  /**
   * `lazy` (the default): read with the fast reader and compute positions when one is first read (see
   * lazy-positions.ts). `eager`: read with positions at once, for callers that read every step's position
   * (the editor's flow view and markers).
   */
  positions?: 'lazy' | 'eager';
}

/**
 * Parses a `*.pi.yaml` script into the pipeline model; throws PIPELINE_SYNTAX with line and column. A text
 * the fast reader reads and the model accepts costs no position work; anything else (every error among
 * them) is read by the careful reader, whose model and messages are the ones the fast path stands in for.
 */
export function parsePipelineYaml(text: string, options: YamlParseOptions = {}): PipelineScript {
  checkSourceLength(text);
  const careful = () => {
    try {
      return parseYaml(text);
    } catch (error) {
      throw unexpected(error);
    }
  };
  if (options.positions === 'eager') return careful();
  const fast = loadYamlFast(text);
  if (fast) {
    let script: PipelineScript | undefined;
    try {
      script = buildScript(fast.value, NO_POSITIONS, 'yaml');
    } catch {
      script = undefined; // the careful reader throws the same error, with its line and column
    }
    if (script) return withLazyPositions(script, careful);
  }
  return careful();
}

function parseYaml(text: string): PipelineScript {
  const lines = new LineCounter();
  // resolveKnownTags off: `!!binary` and the like stay text, so every value is plain JSON data.
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false,
    prettyErrors: true,
    strict: true,
    resolveKnownTags: false,
  });
  const locator = new YamlLocator(doc, text, lines);
  const [first] = doc.errors;
  if (first) {
    const overflow = doc.errors.find((e) => /call stack/i.test(e.message));
    throw describeYamlError(overflow ?? first, doc, text, locator);
  }
  const fault = findShapeFault(doc, text);
  if (fault) throw syntaxError(fault.message, fault.node.range ? locator.at(fault.node.range[0]) : undefined);
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: PIPELINE_LIMITS.maxAliasCount });
  } catch (error) {
    const alias = findAlias(doc.contents, error);
    const at = alias?.range ? locator.at(alias.range[0]) : undefined;
    if (error instanceof RangeError) throw syntaxError(tooDeepMessage(), at);
    const message = error instanceof Error ? error.message : String(error);
    if (/alias count/i.test(message)) {
      throw syntaxError(
        `Aliases expand to too much data (more than ${PIPELINE_LIMITS.maxAliasCount} expansions)`,
        at,
      );
    }
    throw syntaxError(message.replace(/\.$/, ''), at);
  }
  // Aliases can nest data deeper than the text does.
  if (isTooDeep(root)) {
    const alias = findAlias(doc.contents, undefined);
    throw syntaxError(tooDeepMessage(), alias?.range ? locator.at(alias.range[0]) : undefined, {
      hint: 'through aliases',
    });
  }
  return buildScript(root, locator, 'yaml');
}
