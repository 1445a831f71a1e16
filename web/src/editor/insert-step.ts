/**
 * Where "Insert into editor" puts a step: as a whole new item of the `pipeline` list, after the step the
 * cursor is in (or at the end of the list when the cursor is elsewhere), indented like its neighbours, never
 * in the middle of a line. Pure, no Monaco.
 */
import { isMap, isScalar, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import type { PipelineForm } from './types';

/** A step to insert: the command and its parameters with placeholder values. */
export interface StepToInsert {
  command: string;
  params: [name: string, value: unknown][];
}

/** The edit to make: insert `text` at `offset`; the cursor then goes to `cursor` (an offset in the new text). */
export interface StepInsertion {
  offset: number;
  text: string;
  /** Where the cursor goes in the text after the edit: on the first parameter's value, or after the name. */
  cursor: number;
  /** When the whole text is replaced (JSON, rewritten by JSON.stringify): `offset` and `text` replace all. */
  replaceAll?: boolean;
}

/** A placeholder in YAML: JSON is YAML, and quoted strings keep `<key>` or `#{...}` readable as written. */
function yamlValue(value: unknown): string {
  return JSON.stringify(value);
}

/** The step's YAML lines, `- ` at column `indent`, parameters four columns further in. */
function yamlStep(step: StepToInsert, indent: string): { text: string; focus: number } {
  if (step.params.length === 0) {
    const text = `${indent}- ${step.command}\n`;
    return { text, focus: text.length - 1 };
  }
  const head = `${indent}- ${step.command}:\n`;
  const [first, ...rest] = step.params.map(([name, value]) => `${indent}    ${name}: ${yamlValue(value)}`);
  const focus = head.length + first!.indexOf(': ') + 2;
  return { text: [head + first!, ...rest].join('\n') + '\n', focus };
}

/** The offset of the start of the line after the one that holds `offset` (text end when there is none). */
function nextLineStart(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function insertAt(text: string, offset: number, step: { text: string; focus: number }): StepInsertion {
  // At the end of a text without a final newline, the step starts on a line of its own.
  const lead = offset === text.length && text.length > 0 && !text.endsWith('\n') ? '\n' : '';
  return { offset, text: lead + step.text, cursor: offset + lead.length + step.focus };
}

function stepValue(step: StepToInsert): unknown {
  return step.params.length === 0 ? step.command : { [step.command]: Object.fromEntries(step.params) };
}

function insertYaml(text: string, cursor: number, step: StepToInsert): StepInsertion {
  const document = parseDocument(text);
  const root = document.contents;
  if (document.errors.length > 0 || (root !== null && !isMap(root))) {
    // Not readable YAML: at the start of the next line, indented as a step, never mid-line.
    return insertAt(text, nextLineStart(text, cursor), yamlStep(step, '  '));
  }
  const pipeline = root?.get('pipeline', true);
  if (isSeq(pipeline) && !pipeline.flow && pipeline.items.length > 0) {
    const pair = root!.items.find((item) => isScalar(item.key) && item.key.value === 'pipeline');
    const keyStart = (isScalar(pair?.key) && pair.key.range?.[0]) || 0;
    return insertAfterItem(text, cursor, lineStart(text, keyStart), pipeline, step);
  }
  if (!root?.has('pipeline')) {
    const added = yamlStep(step, '  ');
    const head = `${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}pipeline:\n`;
    return { offset: text.length, text: head + added.text, cursor: text.length + head.length + added.focus };
  }
  if (isScalar(pipeline) && pipeline.value === null && pipeline.range) {
    // `pipeline:` with nothing under it: the step goes on the line after the key.
    return insertAt(text, nextLineStart(text, pipeline.range[0]), yamlStep(step, '  '));
  }
  // Any other shape (`pipeline: []`, ...): the document is written again, its comments kept.
  if (isSeq(pipeline)) pipeline.add(document.createNode(stepValue(step)));
  else document.set('pipeline', document.createNode([stepValue(step)]));
  const next = document.toString();
  return { offset: 0, text: next, cursor: Math.max(next.lastIndexOf(step.command), 0), replaceAll: true };
}

function insertAfterItem(
  text: string,
  cursor: number,
  keyLineStart: number,
  pipeline: YAMLSeq,
  step: StepToInsert,
): StepInsertion {
  const items = pipeline.items as { range?: [number, number, number] | null }[];
  const ranges = items.map((item) => item.range).filter((r): r is [number, number, number] => !!r);
  const first = ranges[0]!;
  const last = ranges[ranges.length - 1]!;
  const itemStart = lineStart(text, first[0]);
  const indent = /^[ \t]*/.exec(text.slice(itemStart, first[0]))![0];
  const inList = cursor >= keyLineStart && cursor <= last[1];
  // The step the cursor is in (or the last one before it); outside the list, the last step.
  let after = last;
  if (inList) {
    const before = ranges.filter((r) => lineStart(text, r[0]) <= cursor);
    if (before.length === 0) return insertAt(text, itemStart, yamlStep(step, indent));
    after = before[before.length - 1]!;
  }
  const end =
    after[1] > 0 && text[after[1] - 1] === '\n' ? after[1] : nextLineStart(text, Math.max(after[1] - 1, 0));
  return insertAt(text, end, yamlStep(step, indent));
}

/** JSON holds no comments: the pipeline is read, the step added after the cursor's step, and written again. */
function insertJson(text: string, cursorLine: number, step: StepToInsert): StepInsertion | null {
  let document: unknown;
  let lines: number[] = [];
  try {
    document = text.trim() === '' ? {} : JSON.parse(text);
    if (text.trim() !== '') lines = parsePipeline(text, 'json').steps.map((s) => s.position?.line ?? 0);
  } catch {
    return null;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return null;
  const record = document as Record<string, unknown>;
  const steps = Array.isArray(record.pipeline) ? [...(record.pipeline as unknown[])] : [];
  // After the last step that starts on or above the cursor's line; before the first when the cursor is above.
  const inside = lines.filter((line) => line <= cursorLine).length;
  const at = lines.length > 0 && cursorLine > (lines[lines.length - 1] ?? 0) + 50 ? steps.length : inside;
  steps.splice(Math.min(at, steps.length), 0, stepValue(step));
  const next = JSON.stringify({ ...record, pipeline: steps }, null, 2) + '\n';
  // Written with two spaces, each item of the pipeline array starts a line indented by four.
  const itemStarts = [...next.slice(next.indexOf('"pipeline"')).matchAll(/\n {4}(?=[^ \]}])/g)];
  const item = itemStarts[Math.min(at, steps.length - 1)];
  const marker = item ? next.indexOf('"pipeline"') + item.index + 5 : 0;
  return { offset: 0, text: next, cursor: Math.max(marker, 0), replaceAll: true };
}

/** Where and how to insert `step` into `text` (form `form`) with the cursor at `cursor` (offset, 1-based line). */
export function planStepInsertion(
  text: string,
  form: PipelineForm,
  cursor: { offset: number; line: number },
  step: StepToInsert,
): StepInsertion | null {
  if (form === 'yaml') return insertYaml(text, cursor.offset, step);
  if (form === 'json') return insertJson(text, cursor.line, step);
  return null;
}
