/**
 * The fast YAML reader of pipeline texts: js-yaml with the YAML 1.2 core schema, the one `yaml` applies in
 * parse-yaml.ts. It keeps no source positions, which is what makes it several times faster; parse-yaml.ts
 * uses it first and reads the text again with `yaml` only when positions are needed (an error to report, a
 * step to locate). Anything it is not sure to read exactly as `yaml` does answers undefined, and the careful
 * reader decides: a js-yaml error, a tag of its own, an anchor, nesting deeper than the limit, a key that is
 * not a plain name.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';
import { isTooDeep } from './limits';

/** The plain-scalar forms of the YAML 1.2 core schema (spec 10.3.2), as `yaml` resolves them. */
const CORE_NULL = /^(?:~|null|Null|NULL)?$/;
const CORE_BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_OCTAL = /^0o[0-7]+$/;
const CORE_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const CORE_INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const CORE_NAN = /^\.(?:nan|NaN|NAN)$/;

const scalar = (tag: string, resolve: (text: string) => boolean, construct: (text: string) => unknown) =>
  new Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve, construct });

const CORE_SCHEMA_AS_YAML_READS_IT = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar(
      'null',
      (text) => CORE_NULL.test(text),
      () => null,
    ),
    scalar(
      'bool',
      (text) => CORE_BOOL.test(text),
      (text) => text[0] === 't' || text[0] === 'T',
    ),
    scalar(
      'int',
      (text) => CORE_INT.test(text) || CORE_OCTAL.test(text) || CORE_HEX.test(text),
      (text) => (CORE_INT.test(text) ? Number(text) : parseInt(text.slice(2), text[1] === 'o' ? 8 : 16)),
    ),
    scalar(
      'float',
      (text) => CORE_FLOAT.test(text) || CORE_INFINITY.test(text) || CORE_NAN.test(text),
      (text) => {
        if (CORE_NAN.test(text)) return NaN;
        if (CORE_INFINITY.test(text)) return text[0] === '-' ? -Infinity : Infinity;
        return parseFloat(text);
      },
    ),
  ],
});

// The suspects below are tried on every text, whatever its size: their white space stays within a line
// (`[ \t]`), so no match attempt that starts at a line runs on into the lines after it. One that did made a
// text of 400 KB of blank lines take 80 seconds (fast-yaml.test.ts keeps such texts in its cases).

/**
 * Flow collections or explicit `? ` entries used as keys: js-yaml turns such a key into text where `yaml`
 * (and so the careful reader's error) refuses it. A match only costs the fast path, never correctness.
 */
const MAYBE_COMPLEX_KEY = /^[ \t]*(?:-[ \t]+)*\?(?:[ \t]|$)|[\]}][ \t]*:(?:[ \t]|$)/m;

/**
 * Anchors: aliases are where the readers differ most (an alias as a key, the expansion limit of `yaml`), and
 * pipelines rarely use them. A `&name` that is really text in a string only costs the fast path.
 */
const MAYBE_ANCHOR = /(?:^|[\s[{,])&[^\s&]/m;

/** A key written as null: `yaml` names it '' where js-yaml names it 'null'. */
const MAYBE_NULL_KEY = /(?:^|[\s{,])(?:~|null|Null|NULL)[ \t]*:(?:\s|$)/m;

/** The document as plain data, or undefined when only the careful reader can be trusted with it. */
export function loadYamlFast(text: string): { value: unknown } | undefined {
  if ([MAYBE_COMPLEX_KEY, MAYBE_ANCHOR, MAYBE_NULL_KEY].some((suspect) => suspect.test(text)))
    return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA_AS_YAML_READS_IT });
  } catch {
    return undefined; // a syntax error, an unknown tag, a stack overflow: the careful reader explains it
  }
  if (isTooDeep(value)) return undefined;
  return { value };
}
