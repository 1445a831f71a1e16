/**
 * The cursor's line in each pipeline model, published by the editor for the flow view: in a long pipeline the
 * flow view shows the step being edited (it draws only the steps in view, so it must look where the user is).
 * Plain module state, like the validator's results: the editor and the flow view are separate chunks.
 */
type Listener = (line: number) => void;
type Match = (modelUri: string) => boolean;

const listeners = new Set<{ match: Match; listener: Listener }>();
const latest = new Map<string, number>();

/** The editor tells where the cursor of `modelUri` now is (1-based line). */
export function publishCursorLine(modelUri: string, line: number): void {
  if (latest.get(modelUri) === line) return;
  latest.set(modelUri, line);
  for (const { match, listener } of listeners) if (match(modelUri)) listener(line);
}

/** Follows the cursor line of the models `match` accepts (the last one at once, if known). Returns the stop. */
export function onCursorLine(match: Match, listener: Listener): () => void {
  const entry = { match, listener };
  listeners.add(entry);
  for (const [uri, line] of latest) if (match(uri)) listener(line);
  return () => void listeners.delete(entry);
}
