/** Between a place in the pipeline text and an offset in one of its string values (for completion inside `#{`). */
import type { SourcePosition } from '../../../shared/pipeline/model';
import { locateInScalar } from '../../../shared/pipeline/locate';
import { scanPipeline, type ScalarInText } from './pel-scan';

function before(a: SourcePosition, b: SourcePosition): boolean {
  return a.line < b.line || (a.line === b.line && a.column <= b.column);
}

/** The offset in `scalar.value` of the cursor at `at`: the last character placed at or before it. */
export function offsetInScalar(scalar: ScalarInText, at: SourcePosition): number {
  let lo = 0;
  let hi = scalar.value.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (before(locateInScalar(scalar, scalar.value, mid), at)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The line the last character of a scalar is on. */
function lastLine(scalar: ScalarInText): number {
  return scalar.start.line + (scalar.raw.match(/\n/g)?.length ?? 0);
}

/** The `#{`-holding string value the cursor is in, with the cursor's offset in it; null outside any. */
export function scalarAt(
  lines: readonly string[],
  language: 'yaml' | 'json' | 'uri',
  at: SourcePosition,
): { scalar: ScalarInText; offset: number } | null {
  return scalarAmong(scanPipeline(lines, language).scalars, at);
}

/** The same among the scalars of a text already scanned. */
export function scalarAmong(
  scalars: readonly ScalarInText[],
  at: SourcePosition,
): { scalar: ScalarInText; offset: number } | null {
  for (const scalar of scalars) {
    if (at.line < scalar.start.line || at.line > lastLine(scalar)) continue;
    if (scalar.style !== 'literal') {
      const rawEnd = scalar.start.column + scalar.raw.length;
      if (at.column <= scalar.start.column || at.column >= rawEnd + (scalar.style === 'plain' ? 1 : 0))
        continue;
    }
    return { scalar, offset: offsetInScalar(scalar, at) };
  }
  return null;
}

/** The source position of an offset in a scalar's value. */
export function positionInScalar(scalar: ScalarInText, offset: number): SourcePosition {
  return locateInScalar(scalar, scalar.value, offset);
}
