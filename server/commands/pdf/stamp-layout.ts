/** The parameters of pdf.stamp turned into drawing values: color, pages, margins and where the text goes. */
import { PipeworkError } from '../../../shared/errors';

const invalid = (parameter: string, message: string) =>
  new PipeworkError('PARAM_INVALID', message, { parameter });

const COLORS: Record<string, [number, number, number]> = {
  BLACK: [0, 0, 0],
  WHITE: [1, 1, 1],
  RED: [1, 0, 0],
  GREEN: [0, 0.5, 0],
  BLUE: [0, 0, 1],
  YELLOW: [1, 1, 0],
  ORANGE: [1, 0.65, 0],
  GRAY: [0.5, 0.5, 0.5],
  GREY: [0.5, 0.5, 0.5],
  LIGHT_GRAY: [0.75, 0.75, 0.75],
  DARK_GRAY: [0.25, 0.25, 0.25],
  CYAN: [0, 1, 1],
  MAGENTA: [1, 0, 1],
  PINK: [1, 0.75, 0.8],
};
export const COLOR_NAMES = Object.keys(COLORS);

/** A named color (BLUE, RED, ...) or #RRGGBB, as red, green and blue from 0 to 1 (pdf-lib's `rgb` takes them). */
export function colorOf(value: string): [number, number, number] {
  const named = COLORS[value.trim().toUpperCase()];
  if (named) return named;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value.trim());
  if (hex) return hex.slice(1).map((h) => parseInt(h, 16) / 255) as [number, number, number];
  throw invalid('textColor', `'${value}' is no color: use ${COLOR_NAMES.join(', ')} or #RRGGBB.`);
}

/** 0-based page indexes: `ALL`, or indexes and ranges such as `0`, `0,2`, `1-3`; -1 is the last page. */
export function pagesOf(value: string, count: number): number[] {
  const text = value.trim().toUpperCase();
  if (text === 'ALL') return [...Array(count).keys()];
  const pages = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const range = /^(-?\d+)(?:-(\d+))?$/.exec(part);
    if (!range)
      throw invalid('pages', `'${value}' is no page list: use ALL, 0, 0,2 or 1-3 (0 is the first page).`);
    const from = Number(range[1]) < 0 ? count + Number(range[1]) : Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < 0 || to >= count || from > to)
      throw invalid('pages', `Page ${part} is outside the document (pages 0 to ${count - 1}).`);
    for (let p = from; p <= to; p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** One value for all sides, or four: top, right, bottom, left. */
export function marginsOf(value: string | number): Margins {
  const parts = String(value)
    .split(',')
    .map((p) => Number(p.trim()));
  if (parts.some((n) => !Number.isFinite(n) || n < 0) || (parts.length !== 1 && parts.length !== 4))
    throw invalid('margin', `'${value}' is no margin: one number or four (top, right, bottom, left).`);
  const [top, right = top, bottom = top, left = top] = parts as [number, ...number[]];
  return { top, right, bottom, left };
}

export const POSITIONS = [
  'TOP_LEFT',
  'TOP_CENTER',
  'TOP_RIGHT',
  'CENTER_LEFT',
  'CENTER',
  'CENTER_RIGHT',
  'BOTTOM_LEFT',
  'BOTTOM_CENTER',
  'BOTTOM_RIGHT',
];

export interface Placement {
  x: number;
  y: number;
}

/**
 * Where the text's baseline starts. Named positions place the text's box inside the margins and rotate it
 * about its centre; `x,y` is the baseline start itself (0,0 is the bottom left corner), rotated about it.
 */
export function placeText(
  position: string,
  page: { width: number; height: number },
  box: { width: number; height: number },
  margins: Margins,
  degree: number,
): Placement {
  const coordinates = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(position);
  if (coordinates) return { x: Number(coordinates[1]), y: Number(coordinates[2]) };
  const name = position.trim().toUpperCase();
  if (!POSITIONS.includes(name))
    throw invalid('position', `'${position}' is no position: use x,y or one of ${POSITIONS.join(', ')}.`);
  const [vertical, horizontal = 'CENTER'] = name === 'CENTER' ? ['CENTER'] : name.split('_');
  const cx =
    horizontal === 'LEFT'
      ? margins.left + box.width / 2
      : horizontal === 'RIGHT'
        ? page.width - margins.right - box.width / 2
        : page.width / 2;
  const cy =
    vertical === 'TOP'
      ? page.height - margins.top - box.height / 2
      : vertical === 'BOTTOM'
        ? margins.bottom + box.height / 2
        : page.height / 2;
  const angle = (degree * Math.PI) / 180;
  // The baseline start sits half the box back from the centre, along the rotated axes.
  return {
    x: cx - (box.width / 2) * Math.cos(angle) + (box.height / 2) * Math.sin(angle),
    y: cy - (box.width / 2) * Math.sin(angle) - (box.height / 2) * Math.cos(angle),
  };
}
