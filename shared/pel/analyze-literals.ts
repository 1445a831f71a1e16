/**
 * Arguments written as text that fail the moment they are used: a date pattern with a letter Java does not
 * know (`@date.format(x, 'yyyy-bb')`) and a URI form that does not exist (`@resolve.uri('$uri:secret:x')`).
 * Found before running, for the editor and `pipeline.validate`.
 */
import type { PelNode } from './ast';
import { datePatternProblem } from './utilities/date-pattern';
import { parseCustomUri } from '../uri/custom-uri';

export interface LiteralProblem {
  message: string;
  start: number;
  end: number;
}

/** Which arguments of `@date` functions are patterns (by the number of arguments given). */
function patternIndexes(name: string, count: number): number[] {
  switch (name) {
    case 'now':
    case 'today':
      return [0];
    case 'format':
      return count >= 3 ? [1, 2] : [1];
    case 'parse':
    case 'guessAndFormat':
      return [1];
    default:
      return [];
  }
}

/** A zone where `now` / `today` also take one (`Europe/Berlin`, `UTC`, `+02:00`). */
function looksLikeZone(text: string): boolean {
  return /\//.test(text) || /^(UTC|GMT|Z)$/i.test(text) || /^[+-]\d/.test(text);
}

const URI_FUNCTIONS: Record<string, readonly string[]> = {
  resolve: ['uri'],
  uri: ['resolve'],
  content: ['newContent', 'newCollection'],
};

function textArgument(node: PelNode | undefined): string | undefined {
  return node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
}

export function literalProblems(node: PelNode): LiteralProblem[] {
  if (node.type !== 'Call' || node.object?.type !== 'Utility') return [];
  const utility = node.object.name;
  const out: LiteralProblem[] = [];
  if (utility === 'date') {
    for (const index of patternIndexes(node.name, node.args.length)) {
      const arg = node.args[index];
      const pattern = textArgument(arg);
      if (pattern === undefined || (index === 0 && looksLikeZone(pattern))) continue;
      const problem = datePatternProblem(pattern);
      if (problem) out.push({ message: `@date.${node.name}: ${problem}`, start: arg!.start, end: arg!.end });
    }
  }
  const isUriCall =
    URI_FUNCTIONS[utility]?.includes(node.name) || (utility === 'convert' && node.name === 'lazy');
  const uri = isUriCall ? textArgument(node.args[0]) : undefined;
  if (uri !== undefined && (utility !== 'convert' || /^\$?uri:/.test(uri.trim()))) {
    const parsed = parseCustomUri(uri);
    if (!parsed.ok)
      out.push({
        message: `@${utility}.${node.name}: ${parsed.message}`,
        start: node.args[0]!.start,
        end: node.args[0]!.end,
      });
  }
  return out;
}
