/**
 * Where the flow view looks when it shows a graph on its own (first drawn, its panel resized, a step added or
 * removed while the user has not moved the view): the whole graph when it fits at a readable size, else the
 * start of the pipeline at a readable size. A 200-step pipeline fitted whole is drawn at a tenth of its size:
 * no label can be read, and every step is drawn on every keystroke; at a readable size about twenty are in
 * view, and only those are drawn (React Flow's `onlyRenderVisibleElements`).
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** Below this zoom the steps' 12 px text is under 6 px on screen: the graph is shown from its start instead. */
export const READABLE_ZOOM = 0.5;
/** A small graph is not blown up past its natural size. */
const MAX_FIT_ZOOM = 1;
/** Room around the graph, in screen pixels. */
const PADDING = 16;

/** The box around rectangles (the steps); null for none. */
export function boundsOf(rects: readonly Rect[]): Rect | null {
  if (rects.length === 0) return null;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const r of rects) {
    left = Math.min(left, r.x);
    top = Math.min(top, r.y);
    right = Math.max(right, r.x + r.width);
    bottom = Math.max(bottom, r.y + r.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The viewport showing `graph` in a panel of `width` × `height` screen pixels (see above). */
export function shownViewport(graph: Rect, width: number, height: number): Viewport {
  const fit = Math.min(
    (width - 2 * PADDING) / Math.max(graph.width, 1),
    (height - 2 * PADDING) / Math.max(graph.height, 1),
    MAX_FIT_ZOOM,
  );
  const zoom = Math.max(fit, READABLE_ZOOM);
  const x = (width - graph.width * zoom) / 2 - graph.x * zoom;
  // Fitted: centred; too tall to read whole: its first steps at the top.
  const y =
    fit >= READABLE_ZOOM ? (height - graph.height * zoom) / 2 - graph.y * zoom : PADDING - graph.y * zoom;
  return { x, y, zoom };
}

/** The step the cursor is in: the last one starting at or before `line` (steps are in text order). */
export function stepAtLine<T extends { step: { line?: number } }>(
  nodes: readonly T[],
  line: number,
): T | null {
  let found: T | null = null;
  for (const node of nodes) {
    if (node.step.line === undefined) continue;
    if (node.step.line > line) break;
    found = node;
  }
  return found;
}

/** True when `rect` (graph coordinates) is wholly on screen in a `width` × `height` panel. */
export function inView(rect: Rect, view: Viewport, width: number, height: number): boolean {
  const left = rect.x * view.zoom + view.x;
  const top = rect.y * view.zoom + view.y;
  return (
    left >= 0 && top >= 0 && left + rect.width * view.zoom <= width && top + rect.height * view.zoom <= height
  );
}
