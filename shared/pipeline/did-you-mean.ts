/** "Did you mean ...?" for misspelt command and parameter names, by edit distance. */

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
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
