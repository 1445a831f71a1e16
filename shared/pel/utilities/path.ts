/** `@path`: '/'-separated paths such as property keys: join, parent, name, extension, wildcard matching. */
import { utilityError } from '../errors';
import { type UtilitySpec, itemsOf, text } from './support';
import { templateText } from '../values';

function normalize(p: string): string {
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/** Without trailing '/' (a loop: `/\/+$/` is quadratic on a long run of slashes). */
function trimTrailingSlashes(p: string): string {
  let end = p.length;
  while (end > 0 && p.charCodeAt(end - 1) === 47) end--;
  return p.slice(0, end);
}

function trimSlashes(p: string): string {
  let start = 0;
  while (start < p.length && p.charCodeAt(start) === 47) start++;
  return trimTrailingSlashes(p.slice(start));
}

function nameOf(p: string): string {
  const trimmed = trimTrailingSlashes(p);
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

type GlobStep = { kind: 'char'; char: string } | { kind: 'one' } | { kind: 'segment' } | { kind: 'any' };

function globSteps(glob: string): GlobStep[] {
  if (glob.length > 1000) throw utilityError('matches: the pattern is too long');
  const steps: GlobStep[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      steps.push({ kind: 'any' });
      i++;
    } else if (c === '*') steps.push({ kind: 'segment' });
    else if (c === '?') steps.push({ kind: 'one' });
    else steps.push({ kind: 'char', char: c });
  }
  return steps;
}

/**
 * `*` matches within one segment, `**` across segments, `?` one character but '/' (as property key
 * patterns do). The pattern runs as a set of live positions over the path, so the time is at most
 * path length times pattern length, whatever the pattern (a backtracking regex would be exponential).
 */
function globMatches(path: string, glob: string): boolean {
  const steps = globSteps(glob);
  if (path.length * (steps.length + 1) > 100_000_000)
    throw utilityError('matches: the path is too long for the pattern');
  let live = new Uint8Array(steps.length + 1);
  let next = new Uint8Array(steps.length + 1);
  const close = (set: Uint8Array): void => {
    // A star may match nothing: a live star makes the position after it live too.
    for (let k = 0; k < steps.length; k++)
      if (set[k] && steps[k]!.kind !== 'char' && steps[k]!.kind !== 'one') set[k + 1] = 1;
  };
  live[0] = 1;
  close(live);
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    next.fill(0);
    let any = false;
    for (let k = 0; k < steps.length; k++) {
      if (!live[k]) continue;
      const step = steps[k]!;
      if (step.kind === 'any' || (step.kind === 'segment' && c !== '/')) next[k] = 1;
      else if ((step.kind === 'char' && step.char === c) || (step.kind === 'one' && c !== '/'))
        next[k + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    close(next);
    [live, next] = [next, live];
  }
  return live[steps.length] === 1;
}

export const pathUtility: UtilitySpec = {
  name: 'path',
  doc: "Paths separated by '/', such as property keys.",
  functions: {
    join: {
      signature: 'join(pathItems)',
      doc: "The items (a list, or several arguments) joined by single '/', nulls left out: @path.join('global/app', 'x') is 'global/app/x'.",
      fn: (...a) =>
        itemsOf('join', a)
          .filter((v) => v !== null && v !== undefined)
          .map((v) => {
            if (typeof v === 'object') throw utilityError('join: every path item must be text');
            return templateText(v);
          })
          .filter((s) => s !== '')
          .map((s, i) => (i === 0 ? trimTrailingSlashes(s) : trimSlashes(s)))
          .join('/'),
    },
    normalize: {
      signature: 'normalize(path)',
      doc: "Without empty, '.' and resolved '..' segments.",
      fn: (...a) => normalize(text('normalize', a, 0)),
    },
    basename: {
      signature: 'basename(path)',
      doc: "The last segment, the file name: @path.basename('/a/b/report.pdf') is 'report.pdf'.",
      fn: (...a) => nameOf(text('basename', a, 0)),
    },
    extension: {
      signature: 'extension(path)',
      doc: "The extension of the last segment without the dot ('' when none).",
      fn: (...a) => {
        const n = nameOf(text('extension', a, 0));
        const dot = n.lastIndexOf('.');
        return dot > 0 ? n.slice(dot + 1) : '';
      },
    },
    parent: {
      signature: 'parent(path)',
      doc: "Everything before the last segment ('' when none).",
      fn: (...a) => {
        const p = trimTrailingSlashes(text('parent', a, 0));
        const i = p.lastIndexOf('/');
        return i < 0 ? '' : i === 0 ? '/' : p.slice(0, i);
      },
    },
    segments: {
      signature: 'segments(path)',
      doc: 'The non-empty segments as a list.',
      fn: (...a) =>
        text('segments', a, 0)
          .split('/')
          .filter((s) => s !== ''),
    },
    isAbsolute: {
      signature: 'isAbsolute(path)',
      doc: "True when it starts with '/'.",
      fn: (...a) => text('isAbsolute', a, 0).startsWith('/'),
    },
    matches: {
      signature: 'matches(path, pattern)',
      doc: "True when the path matches a pattern with * (within a segment), ** (across segments) and ? (one character): @path.matches('global/app/x', 'global/*/x').",
      fn: (...a) => globMatches(text('matches', a, 0), text('matches', a, 1)),
    },
  },
};
