/** Operations per second of an async function beside a baseline: median of alternating rounds, after a warm-up. */
import { median } from '../bench-report';

export async function compareAsync(
  ours: () => unknown,
  baseline: () => unknown,
  rounds = 5,
  ms = 300,
): Promise<{ ours: number; baseline: number }> {
  const rate = async (fn: () => unknown) => {
    const start = performance.now();
    let ops = 0;
    while (performance.now() - start < ms) {
      await fn();
      ops++;
    }
    return (ops * 1000) / (performance.now() - start);
  };
  await rate(ours);
  await rate(baseline);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await rate(ours));
    b.push(await rate(baseline));
  }
  return { ours: median(a), baseline: median(b) };
}
