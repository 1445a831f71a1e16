/** Measures how deeply a value nests without recursion, so a hostile document cannot overflow the stack. */

/** True when `value` nests arrays/objects deeper than `maxDepth` levels. Iterative; stops early. */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
