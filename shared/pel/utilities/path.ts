/** `@path`: '/'-separated paths such as property keys: join, parent, name, extension, wildcard matching. */
import { utilityError } from '../errors';
import { type UtilitySpec, text } from './support';

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

function nameOf(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** `*` matches within one segment, `**` across segments (as property key patterns do). */
function globToRegex(glob: string): RegExp {
  if (glob.length > 1000) throw utilityError('matches: the pattern is too long');
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export const pathUtility: UtilitySpec = {
  name: 'path',
  doc: "Paths separated by '/', such as property keys.",
  functions: {
    join: {
      signature: 'join(...parts)',
      doc: "The parts joined by single '/': @path.join('global/app', 'x') is 'global/app/x'.",
      fn: (...a) =>
        a
          .map((_v, i) => text('join', a, i))
          .filter((s) => s !== '')
          .map((s, i) => (i === 0 ? s.replace(/\/+$/, '') : s.replace(/^\/+|\/+$/g, '')))
          .join('/'),
    },
    normalize: {
      signature: 'normalize(path)',
      doc: "Without empty, '.' and resolved '..' segments.",
      fn: (...a) => normalize(text('normalize', a, 0)),
    },
    name: { signature: 'name(path)', doc: 'The last segment.', fn: (...a) => nameOf(text('name', a, 0)) },
    baseName: {
      signature: 'baseName(path)',
      doc: 'The last segment without its extension.',
      fn: (...a) => {
        const n = nameOf(text('baseName', a, 0));
        const dot = n.lastIndexOf('.');
        return dot > 0 ? n.slice(0, dot) : n;
      },
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
        const p = text('parent', a, 0).replace(/\/+$/, '');
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
      doc: "True when the path matches a pattern with * (one segment) and ** (any): @path.matches('global/app/x', 'global/*/x').",
      fn: (...a) => globToRegex(text('matches', a, 1)).test(text('matches', a, 0)),
    },
  },
};
