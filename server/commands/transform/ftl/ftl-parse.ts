/**
 * Reading a FreeMarker template with freemarker-parser: FreeMarker's white-space stripping of lines that hold
 * only directives, the parser's errors as PARAM_INVALID with line and column, and a refusal of every
 * directive the evaluator does not run, named.
 */
import { Parser } from 'freemarker-parser';
import { PipeworkError } from '../../../../shared/errors';

/** A node of freemarker-parser's tree (the fields read here). */
export interface FtlNode {
  type: string;
  text?: string;
  params?: FtlExpr | FtlExpr[];
  body?: FtlNode[];
  consequent?: FtlNode[];
  alternate?: FtlNode[];
  fallback?: FtlNode[];
  loc?: { start: { line: number; column: number } };
}

/** An expression of freemarker-parser's tree (jsep's shape). */
export interface FtlExpr {
  type: string;
  name?: string;
  value?: unknown;
  operator?: string;
  left?: FtlExpr;
  right?: FtlExpr;
  argument?: FtlExpr;
  object?: FtlExpr;
  property?: FtlExpr;
  computed?: boolean;
  body?: FtlExpr[];
  elements?: FtlExpr[];
  callee?: FtlExpr;
  arguments?: FtlExpr[];
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

function templateError(message: string, loc?: { start: { line: number; column: number } }): PipeworkError {
  const at = loc && loc.start.line > 0 ? { line: loc.start.line, column: loc.start.column } : {};
  const where = 'line' in at ? ` (template line ${at.line}, column ${at.column})` : '';
  return new PipeworkError('PARAM_INVALID', `transform.ftl: ${message}${where}.`, {
    parameter: 'template',
    ...(at.line !== undefined && { templateLine: at.line, templateColumn: at.column }),
  });
}

function checkSupported(nodes: FtlNode[] | undefined): void {
  for (const node of nodes ?? []) {
    if (!SUPPORTED.has(node.type)) {
      const name = DIRECTIVE[node.type] ?? node.type.toLowerCase();
      throw templateError(`the FreeMarker directive <#${name}> is not supported`, node.loc);
    }
    checkSupported(node.body);
    checkSupported(node.consequent);
    checkSupported(node.alternate);
    checkSupported(node.fallback);
  }
}

/** The template's tree, or PARAM_INVALID naming what is wrong (an unknown directive by name) and where. */
export function parseFtl(template: string): FtlNode[] {
  const { ast } = new Parser().parse(stripDirectiveLines(template)) as unknown as {
    ast: { body?: FtlNode[]; errors?: { message: string; loc?: FtlNode['loc'] }[] };
  };
  const first = ast.errors?.[0];
  if (first) {
    const unknown = /Unknown token `OpenDirective` - `([^`]*)`/.exec(first.message);
    if (unknown) throw templateError(`the FreeMarker directive <#${unknown[1]}> is not supported`, first.loc);
    throw templateError(first.message, first.loc);
  }
  checkSupported(ast.body);
  return ast.body ?? [];
}
