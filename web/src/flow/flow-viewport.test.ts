import { describe, expect, it } from 'vitest';
import { boundsOf, inView, READABLE_ZOOM, shownViewport, stepAtLine } from './flow-viewport';

describe('shownViewport', () => {
  it('fits a small graph whole, centred, at no more than its natural size', () => {
    const view = shownViewport({ x: 0, y: 0, width: 220, height: 300 }, 800, 900);
    expect(view.zoom).toBe(1);
    expect(view.x).toBe((800 - 220) / 2);
    expect(view.y).toBe((900 - 300) / 2);
  });

  it('fits a graph that is readable when shrunk', () => {
    const view = shownViewport({ x: 16, y: 16, width: 220, height: 1200 }, 700, 900);
    expect(view.zoom).toBeCloseTo((900 - 32) / 1200);
    expect(view.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  it('shows the start of a long pipeline at a readable size rather than all of it unreadably small', () => {
    const graph = { x: 16, y: 16, width: 220, height: 19_000 };
    const view = shownViewport(graph, 700, 900);
    expect(view.zoom).toBe(READABLE_ZOOM);
    // The first step's top is just below the panel's top.
    expect(graph.y * view.zoom + view.y).toBe(16);
  });
});

describe('boundsOf', () => {
  it('is the box around the steps', () => {
    expect(
      boundsOf([
        { x: 10, y: 20, width: 220, height: 60 },
        { x: -30, y: 120, width: 220, height: 60 },
      ]),
    ).toEqual({ x: -30, y: 20, width: 260, height: 160 });
    expect(boundsOf([])).toBeNull();
  });
});

describe('stepAtLine', () => {
  const nodes = [1, 4, 9].map((line, index) => ({ id: `s${index}`, step: { line } }));
  it('is the last step starting at or before the line', () => {
    expect(stepAtLine(nodes, 5)?.id).toBe('s1');
    expect(stepAtLine(nodes, 9)?.id).toBe('s2');
    expect(stepAtLine(nodes, 100)?.id).toBe('s2');
  });
  it('is none above the first step', () => {
    expect(stepAtLine([{ step: { line: 3 } }], 2)).toBeNull();
  });
});

describe('inView', () => {
  const step = { x: 100, y: 1000, width: 220, height: 60 };
  it('is true only when the whole step is on screen', () => {
    expect(inView(step, { x: 0, y: 0, zoom: 1 }, 800, 900)).toBe(false);
    expect(inView(step, { x: 0, y: -500, zoom: 1 }, 800, 900)).toBe(true);
    expect(inView(step, { x: 0, y: 0, zoom: 0.5 }, 800, 900)).toBe(true);
  });
});
