/**
 * Reading a FreeMarker template: freemarker-parser finds the directives and builds the tree (with
 * FreeMarker's white-space stripping of lines that hold only directives done first); the expressions inside
 * them are read by our own reader (`ftl-expr.ts`: ranges, defaults in parentheses). Every directive the
 * evaluator does not run is refused by name; errors are PARAM_INVALID with the template's line and column.
 */
import { Parser, Tokenizer } from 'freemarker-parser';
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import { parseAssignParams, parseFtlExpression, parseListParams, type FtlExpr } from './ftl-expr';

export type { FtlExpr } from './ftl-expr';

/** A node of the template tree (freemarker-parser's fields read here, plus the expressions we read). */
export interface FtlNode {
  type: string;
  text?: string;
  params?: unknown;
  body?: FtlNode[];
  consequent?: FtlNode[];
  alternate?: FtlNode[];
  fallback?: FtlNode[];
  loc?: { start: { line: number; column: number } };
  /** Interpolation, Condition: the expression. */
  expr?: FtlExpr;
  /** List: what is gone through and the loop variables. */
  list?: { source: FtlExpr; names: string[] };
  /** Assign: the name and its value. */
  assign?: { name: string; value: FtlExpr };
}

/** The directives the evaluator runs; any other is refused by name. */
const SUPPORTED = new Set(['Program', 'Text', 'Comment', 'Interpolation', 'Condition', 'List', 'Assign']);
/** freemarker-parser's node names back to the directive as written. */
const DIRECTIVE: Record<string, string> = {
  Condition: 'if',
  List: 'list',
  Assign: 'assign',
  Global: 'global',
  Local: 'local',
  Include: 'include',
  Macro: 'macro',
  MacroCall: '@macro call',
  Function: 'function',
  Return: 'return',
  Switch: 'switch',
  Attempt: 'attempt',
  Break: 'break',
  Compress: 'compress',
};

/** Directives (and `<#else>`) nested deeper than this are refused: the evaluator walks the tree recursively. */
export const MAX_FTL_NESTING = 100;

/** A line holding only directives (and blanks) loses its blanks and line break, as FreeMarker strips it. */
const DIRECTIVE_LINE = /^[ \t]*(?:(?:<#--.*?-->|<\/?#[^>]*>)[ \t]*)+$/;

export function stripDirectiveLines(template: string): string {
  const lines = template.split(/(?<=\n)/);
  return lines
    .map((line) => {
      const content = line.replace(/\r?\n$/, '');
      return DIRECTIVE_LINE.test(content) ? content.trim() : line;
    })
    .join('');
}

type Loc = { start: { line: number; column: number } };

function templateError(message: string, loc?: Loc): PipeworkError {
  const at = loc && loc.start.line > 0 ? { line: loc.start.line, column: loc.start.column } : undefined;
  const where = at ? ` (template line ${at.line}, column ${at.column})` : '';
  return new PipeworkError('PARAM_INVALID', `${message}${where}.`, {
    parameter: 'template',
    ...(at && { templateLine: at.line, templateColumn: at.column }),
  });
}

function locOf(template: string, offset: number): Loc {
  const before = template.slice(0, offset);
  const line = before.split('\n').length;
  return { start: { line, column: offset - before.lastIndexOf('\n') } };
}

interface RawToken {
  type: string;
  start: number;
  end: number;
  startTag?: string;
  endTag?: string;
  text: string;
  params?: string;
}

type Parsed = Pick<FtlNode, 'expr' | 'list' | 'assign'>;

/**
 * The template with the expressions of `${}`, `<#if>`, `<#elseif>`, `<#list>` and `<#assign>` replaced by
 * placeholders freemarker-parser reads, and what each placeholder stands for (read by ftl-expr).
 */
function withPlaceholders(template: string, tokens: RawToken[]): { text: string; parsed: Parsed[] } {
  const parsed: Parsed[] = [];
  let text = '';
  for (const token of tokens) {
    const source = template.slice(token.start, token.end);
    const params = token.params;
    const kind =
      token.type === 'Interpolation' ? 'interpolation' : token.type === 'OpenDirective' ? token.text : '';
    if (params === undefined || !['interpolation', 'if', 'elseif', 'list', 'assign'].includes(kind)) {
      text += source;
      continue;
    }
    const id = `__ftl${parsed.length}`;
    // Line breaks inside the expression stay, so later line numbers hold.
    const breaks = '\n'.repeat((source.match(/\n/g) ?? []).length);
    try {
      if (kind === 'list') parsed.push({ list: parseListParams(params) });
      else if (kind === 'assign') parsed.push({ assign: parseAssignParams(params) });
      else parsed.push({ expr: parseFtlExpression(params) });
    } catch (error) {
      if (isPipeworkError(error)) throw templateError(error.message, locOf(template, token.start));
      throw error;
    }
    if (kind === 'interpolation') text += `\${${id}${breaks}}`;
    else if (kind === 'assign')
      text += `<#assign ${parsed[parsed.length - 1]!.assign!.name} = ${id}${breaks}>`;
    else text += `<#${kind} ${id}${breaks}>`;
  }
  return { text, parsed };
}

function placeholderIndex(params: unknown): number | undefined {
  const p = (Array.isArray(params) ? params[0] : params) as
    { type?: string; name?: string; right?: { name?: string } } | undefined;
  const name = p?.type === 'AssignmentExpression' ? p.right?.name : p?.name;
  const m = /^__ftl(\d+)$/.exec(name ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Puts each node's own expressions in place and refuses unknown directives and too deep nesting. */
function attach(nodes: FtlNode[] | undefined, parsed: Parsed[], depth: number): void {
  if (depth > MAX_FTL_NESTING)
    throw templateError(`the template nests directives more than ${MAX_FTL_NESTING} deep`);
  for (const node of nodes ?? []) {
    if (!SUPPORTED.has(node.type)) {
      const name = DIRECTIVE[node.type] ?? node.type.toLowerCase();
      throw templateError(`the FreeMarker directive <#${name}> is not supported`, node.loc);
    }
    if (['Interpolation', 'Condition', 'List', 'Assign'].includes(node.type)) {
      const index = placeholderIndex(node.params);
      const own = index === undefined ? undefined : parsed[index];
      if (!own) throw templateError(`the <#${DIRECTIVE[node.type] ?? '${}'}> has no expression`, node.loc);
      Object.assign(node, own);
    }
    for (const children of [node.body, node.consequent, node.alternate, node.fallback])
      attach(children, parsed, depth + 1);
  }
}

/** The template's tree, or PARAM_INVALID naming what is wrong (an unknown directive by name) and where. */
export function parseFtl(template: string): FtlNode[] {
  const stripped = stripDirectiveLines(template);
  let tokens: RawToken[] | undefined;
  try {
    tokens = new Tokenizer({ squareTags: false, parseLocation: true }).parse(
      stripped,
    ) as unknown as RawToken[];
  } catch {
    tokens = undefined; // the parser below names the fault
  }
  const { text, parsed } = tokens ? withPlaceholders(stripped, tokens) : { text: stripped, parsed: [] };
  const { ast } = new Parser().parse(text) as unknown as {
    ast: { body?: FtlNode[]; errors?: { message: string; loc?: Loc }[] };
  };
  const first = ast.errors?.[0];
  if (first) {
    const unknown = /Unknown token `OpenDirective` - `([^`]*)`/.exec(first.message);
    if (unknown) throw templateError(`the FreeMarker directive <#${unknown[1]}> is not supported`, first.loc);
    throw templateError(first.message, first.loc);
  }
  attach(ast.body, parsed, 0);
  return ast.body ?? [];
}
