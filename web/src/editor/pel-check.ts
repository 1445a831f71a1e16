/**
 * Checks every `#{...}` of a pipeline text with the shared PEL analyzer and places each problem under the
 * exact characters of the source. Incremental: the analysis of each value is kept by its source text, so a
 * keystroke re-analyses only the value it changed (the line scan itself is cheap).
 */
import { analyze, type PelDiagnostic } from '../../../shared/pel/analyze';
import type { SourcePosition } from '../../../shared/pipeline/model';
import { locateInScalar } from '../../../shared/pipeline/locate';
import { scanPipeline, type ScalarInText, type ScanResult } from './pel-scan';

export interface PelProblem {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A problem placed relative to its value's first character (line 1, column 1), before shifting. */
type RelativeProblem = PelProblem;

const CACHE_LIMIT = 5_000;

/** Analyses of values by style and source text; one per editor model. */
export class PelCheckCache {
  private readonly entries = new Map<string, RelativeProblem[]>();
  hits = 0;
  misses = 0;

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, compute: () => RelativeProblem[]): RelativeProblem[] {
    const found = this.entries.get(key);
    if (found) {
      this.hits++;
      return found;
    }
    this.misses++;
    if (this.entries.size >= CACHE_LIMIT) this.entries.clear();
    const value = compute();
    this.entries.set(key, value);
    return value;
  }
}

function relativeScalar(scalar: ScalarInText): ScalarInText {
  return { ...scalar, start: { line: 1, column: 1 } };
}

function place(scalar: ScalarInText, diagnostic: PelDiagnostic): RelativeProblem {
  const from = locateInScalar(scalar, scalar.value, diagnostic.start);
  let to = locateInScalar(scalar, scalar.value, diagnostic.end);
  if (to.line === from.line && to.column <= from.column) to = { line: from.line, column: from.column + 1 };
  return {
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    startLine: from.line,
    startColumn: from.column,
    endLine: to.line,
    endColumn: to.column,
  };
}

/** The problems of one value, relative to its start (so they survive the value moving to another line). */
function analyzeValue(scalar: ScalarInText): RelativeProblem[] {
  const relative = relativeScalar(scalar);
  return analyze(scalar.value, { mode: 'template' }).diagnostics.map((d) => place(relative, d));
}

function shift(problem: RelativeProblem, at: SourcePosition): PelProblem {
  const move = (line: number, column: number) => ({
    line: line + at.line - 1,
    column: line === 1 ? column + at.column - 1 : column,
  });
  const from = move(problem.startLine, problem.startColumn);
  const to = move(problem.endLine, problem.endColumn);
  return {
    ...problem,
    startLine: from.line,
    startColumn: from.column,
    endLine: to.line,
    endColumn: to.column,
  };
}

/**
 * Every PEL problem of a pipeline text (given as lines), in source order. With a `deadline` (a
 * performance.now() time) it stops analysing new values once the deadline has passed and returns null: what
 * it analysed is cached, so the caller calls again later (a first check of a long pipeline never blocks typing).
 */
export function checkPipelineExpressions(
  lines: readonly string[],
  language: 'yaml' | 'json' | 'uri',
  cache?: PelCheckCache,
): PelProblem[];
export function checkPipelineExpressions(
  lines: readonly string[],
  language: 'yaml' | 'json' | 'uri',
  cache: PelCheckCache,
  deadline: number,
): PelProblem[] | null;
export function checkPipelineExpressions(
  lines: readonly string[],
  language: 'yaml' | 'json' | 'uri',
  cache: PelCheckCache = new PelCheckCache(),
  deadline?: number,
): PelProblem[] | null {
  return checkScannedPipeline(scanPipeline(lines, language), cache, deadline);
}

/** The same, for a text already scanned (the editor scans each version of its model once). */
export function checkScannedPipeline(
  { scalars, warnings }: ScanResult,
  cache: PelCheckCache,
  deadline?: number,
): PelProblem[] | null {
  const problems: PelProblem[] = [];
  let analysed = 0;
  for (const scalar of scalars) {
    const key = `${scalar.style}\u0000${scalar.raw}`;
    if (!cache.has(key)) {
      // At least one new value per call, so that slices always make progress.
      if (deadline !== undefined && analysed > 0 && performance.now() > deadline) return null;
      analysed++;
    }
    const relative = cache.get(key, () => analyzeValue(scalar));
    for (const problem of relative) problems.push(shift(problem, scalar.start));
  }
  for (const w of warnings) {
    problems.push({
      severity: 'warning',
      code: 'PEL_IN_COMMENT',
      message: w.message,
      startLine: w.line,
      startColumn: w.column,
      endLine: w.line,
      endColumn: w.endColumn,
    });
  }
  return problems;
}
