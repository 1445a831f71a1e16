/** Editor support: tokens, syntax trees and errors (with ranges) for live highlighting in the workbench. */
import { type PelNode, childrenOf, depthOf } from './ast';
import { literalProblems } from './analyze-literals';
import { PEL_REASONS, type PelReason } from './errors';
import { type Token, tokenize } from './lexer';
import { DEFAULT_PEL_LIMITS } from './limits';
import { OPERATOR_WORDS } from './operators';
import { parseExpression } from './parser';
import { findTemplateSlots } from './template';
import { isRootName } from './types';
import { UTILITY_SPECS } from './utilities';
import { isPipeworkError } from '../errors';

/** How the editor should colour a token. */
export type PelTokenClass =
  | 'text'
  | 'delimiter'
  | 'keyword'
  | 'operator'
  | 'number'
  | 'string'
  | 'root'
  | 'variable'
  | 'utility'
  | 'property'
  | 'method'
  | 'punctuation'
  | 'error';

export interface PelToken {
  start: number;
  end: number;
  type: PelTokenClass;
  value: string;
}

export interface PelDiagnostic {
  severity: 'error' | 'warning';
  /** The catalogue code (PEL_SYNTAX, LIMIT_EXCEEDED; PEL_EVAL for warnings about names). */
  code: string;
  reason: string;
  message: string;
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface PelAnalysis {
  mode: 'template' | 'expression';
  tokens: PelToken[];
  /** One entry per `#{...}` (or the whole text in expression mode); `ast` is null when it does not parse. */
  expressions: { start: number; end: number; ast: PelNode | null }[];
  diagnostics: PelDiagnostic[];
}

export interface AnalyzeOptions {
  /** Default: 'template' when the text contains `#{`, else 'expression'. */
  mode?: 'template' | 'expression';
}

const KEYWORDS = new Set(['true', 'false', 'null']);

/** Line and column of offsets in one text, by binary search over its line starts (lineColumnOf rescans). */
class LineIndex {
  private readonly starts = [0];
  constructor(source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

let lastIndex: { source: string; index: LineIndex } | null = null;

/** The line index of the text being analyzed (built once per text, not once per diagnostic). */
function lineIndexOf(source: string): LineIndex {
  if (lastIndex?.source !== source) lastIndex = { source, index: new LineIndex(source) };
  return lastIndex.index;
}

function diagnostic(
  source: string,
  severity: PelDiagnostic['severity'],
  code: string,
  reason: string,
  message: string,
  start: number,
  end: number,
): PelDiagnostic {
  const lines = lineIndexOf(source);
  const from = lines.at(start);
  const to = lines.at(Math.max(start, end));
  const text = message.replace(/^\d+:\d+: /, '');
  return {
    severity,
    code,
    reason,
    message: text,
    start,
    end,
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
  };
}

function classify(source: string, tokens: Token[]): PelToken[] {
  const out: PelToken[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === 'eof') return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const afterDot = prev?.kind === 'punct' && (prev.value === '.' || prev.value === '?.');
    let type: PelTokenClass;
    switch (t.kind) {
      case 'number':
        type = 'number';
        break;
      case 'string':
        type = 'string';
        break;
      case 'variable':
        type = 'variable';
        break;
      case 'utility':
        type = 'utility';
        break;
      case 'error':
        type = 'error';
        break;
      case 'punct':
        type =
          t.value === '#{'
            ? 'delimiter'
            : /^[a-z]/.test(t.value) || /[+\-*/%^<>=!&|]/.test(t.value)
              ? 'operator'
              : 'punctuation';
        break;
      default: {
        const lower = t.value.toLowerCase();
        const isCall = next?.kind === 'punct' && next.value === '(';
        if (afterDot) type = isCall ? 'method' : 'property';
        else if (KEYWORDS.has(lower)) type = 'keyword';
        else if (OPERATOR_WORDS.has(lower)) type = 'operator';
        else if (isCall) type = 'method';
        else type = isRootName(t.value) ? 'root' : 'property';
      }
    }
    out.push({ start: t.start, end: t.end, type, value: source.slice(t.start, t.end) });
  });
  return out;
}

/** Names a tree uses that will fail at run time: unknown roots (outside selection/projection) and utilities. */
function nameWarnings(source: string, ast: PelNode): PelDiagnostic[] {
  const out: PelDiagnostic[] = [];
  const stack: { node: PelNode; inLambda: boolean }[] = [{ node: ast, inLambda: false }];
  while (stack.length > 0) {
    const { node, inLambda } = stack.pop()!;
    if (node.type === 'Identifier' && !inLambda && !isRootName(node.name)) {
      const [code, template] = PEL_REASONS.UNKNOWN_NAME;
      out.push(
        diagnostic(
          source,
          'warning',
          code,
          'UNKNOWN_NAME',
          template.replace('{0}', node.name),
          node.start,
          node.end,
        ),
      );
    }
    if (node.type === 'Call' && node.object?.type === 'Utility') {
      const utility = node.object;
      const spec = UTILITY_SPECS.find((s) => s.name === utility.name);
      if (!spec) {
        out.push(
          diagnostic(
            source,
            'warning',
            'PEL_EVAL',
            'UNKNOWN_UTILITY',
            `unknown utility '@${utility.name}'`,
            utility.start,
            utility.end,
          ),
        );
      } else if (!Object.hasOwn(spec.functions, node.name)) {
        out.push(
          diagnostic(
            source,
            'warning',
            'PEL_EVAL',
            'UNKNOWN_FUNCTION',
            `the utility '@${spec.name}' has no function '${node.name}'`,
            node.nameStart,
            node.nameStart + node.name.length,
          ),
        );
      }
    }
    for (const problem of literalProblems(node))
      out.push(
        diagnostic(
          source,
          'error',
          'PEL_EVAL',
          'UTILITY_FAILED',
          problem.message,
          problem.start,
          problem.end,
        ),
      );
    const lambdaChild =
      node.type === 'Selection' ? node.predicate : node.type === 'Projection' ? node.mapper : null;
    for (const child of childrenOf(node))
      stack.push({ node: child, inLambda: inLambda || child === lambdaChild });
  }
  return out;
}

function analyzeExpression(source: string, start: number, end: number, result: PelAnalysis): void {
  // Loops, not push(...items): a long text has more tokens than a call can take arguments.
  for (const t of classify(source, tokenize(source, start, end))) result.tokens.push(t);
  let ast: PelNode | null = null;
  try {
    ast = parseExpression(source, start, end);
    const depth = depthOf(ast);
    if (depth > DEFAULT_PEL_LIMITS.maxDepth) {
      result.diagnostics.push(
        diagnostic(
          source,
          'error',
          'LIMIT_EXCEEDED',
          'TOO_DEEP',
          `the expression is nested ${depth} levels deep (limit ${DEFAULT_PEL_LIMITS.maxDepth})`,
          start,
          end,
        ),
      );
    }
    if (end - start > DEFAULT_PEL_LIMITS.maxExpressionLength) {
      result.diagnostics.push(
        diagnostic(
          source,
          'error',
          'LIMIT_EXCEEDED',
          'EXPRESSION_TOO_LONG',
          `the expression is longer than ${DEFAULT_PEL_LIMITS.maxExpressionLength} characters`,
          start,
          end,
        ),
      );
    }
    for (const d of nameWarnings(source, ast)) result.diagnostics.push(d);
  } catch (e) {
    if (!isPipeworkError(e)) throw e;
    const offset = typeof e.details.offset === 'number' ? e.details.offset : start;
    const length = typeof e.details.length === 'number' ? Math.max(1, e.details.length) : 1;
    const reason =
      typeof e.details.reason === 'string' ? (e.details.reason as PelReason) : 'UNEXPECTED_TOKEN';
    result.diagnostics.push(
      diagnostic(
        source,
        'error',
        e.code,
        reason,
        e.message,
        offset,
        Math.min(offset + length, Math.max(end, offset + 1)),
      ),
    );
  }
  result.expressions.push({ start, end, ast });
}

/** Tokens, trees and diagnostics of a template or a bare expression; never throws on user input. */
export function analyze(source: string, options: AnalyzeOptions = {}): PelAnalysis {
  const mode = options.mode ?? (source.includes('#{') ? 'template' : 'expression');
  const result: PelAnalysis = { mode, tokens: [], expressions: [], diagnostics: [] };
  if (mode === 'expression') {
    analyzeExpression(source, 0, source.length, result);
    result.diagnostics.sort((a, b) => a.start - b.start);
    return result;
  }
  let at = 0;
  for (const slot of findTemplateSlots(source, true)) {
    if (slot.open > at)
      result.tokens.push({ start: at, end: slot.open, type: 'text', value: source.slice(at, slot.open) });
    result.tokens.push({ start: slot.open, end: slot.start, type: 'delimiter', value: '#{' });
    analyzeExpression(source, slot.start, slot.end, result);
    if (slot.close > slot.end)
      result.tokens.push({ start: slot.end, end: slot.close, type: 'delimiter', value: '}' });
    else {
      const [code] = PEL_REASONS.UNTERMINATED_TEMPLATE;
      result.diagnostics.push(
        diagnostic(
          source,
          'error',
          code,
          'UNTERMINATED_TEMPLATE',
          "'#{' is never closed by '}'",
          slot.open,
          slot.start,
        ),
      );
    }
    at = slot.close;
  }
  if (at < source.length)
    result.tokens.push({ start: at, end: source.length, type: 'text', value: source.slice(at) });
  result.diagnostics.sort((a, b) => a.start - b.start);
  return result;
}
