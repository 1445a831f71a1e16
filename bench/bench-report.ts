/** Collects benchmark figures as rows of ours-versus-baseline, measured in the same run. */

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  /** Ours over the baseline's (for rates: higher is better). */
  ratio: number;
}

export class BenchReport {
  readonly rows: BenchRow[] = [];

  /** Records one figure against its baseline; the ratio is value / baselineValue. */
  add(row: Omit<BenchRow, 'ratio'>): BenchRow {
    const full = { ...row, ratio: row.baselineValue === 0 ? 0 : row.value / row.baselineValue };
    this.rows.push(full);
    console.log(
      `  ${full.name.padEnd(58)} ${format(full.value).padStart(12)} ${full.unit.padEnd(10)} ` +
        `vs ${full.baseline.padEnd(28)} ${format(full.baselineValue).padStart(12)}  ratio ${full.ratio.toFixed(2)}`,
    );
    return full;
  }
}

function format(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

/** Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and returns operations per second. */
export function measureOpsPerSecond(fn: () => unknown, ms = 500): number {
  const warmUntil = performance.now() + Math.min(200, ms / 2);
  while (performance.now() < warmUntil) fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 50; i++) fn();
    ops += 50;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/**
 * Measures two functions alternately in several rounds (so drift on a noisy machine hits both alike)
 * and returns the median ops/s of each.
 */
export function compareOpsPerSecond(
  ours: () => unknown,
  baseline: () => unknown,
  rounds = 5,
  ms = 200,
): { ours: number; baseline: number } {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(measureOpsPerSecond(ours, ms));
    b.push(measureOpsPerSecond(baseline, ms));
  }
  return { ours: median(a), baseline: median(b) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}
