/** "Did you mean ...?" for misspelt command and parameter names, by edit distance. */

/**
 * Edit distance with adjacent transpositions (optimal string alignment), so "lgo" is one edit from "log";
 * gives up (returning max + 1) once the distance must exceed `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previousMin = 0;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    // A transposition reaches back two rows, so stop only when both are past `max`.
    if (rowMin > max && previousMin > max) return max + 1;
    before = previous;
    previous = current;
    previousMin = rowMin;
  }
  return Math.min(previous[b.length]!, max + 1);
}

/** The closest candidate when it is close enough to be a likely typo (about a third of the name). */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const max = name.length <= 3 ? 1 : Math.min(3, Math.ceil(name.length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** " Did you mean 'x'?" or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const best = closestName(name, candidates);
  return best ? ` Did you mean '${best}'?` : '';
}
