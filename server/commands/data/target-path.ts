/**
 * Writing a value at a path such as `customer.address.city` or `lines[0].amount` inside a result object,
 * creating the maps and lists on the way (data.mapping's targets).
 */
import { PipeworkError } from '../../../shared/errors';

type Segment = string | number;

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

export function parseTargetPath(path: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]|(\.)/gy;
  let expectName = true;
  let lastIndex = 0;
  for (let match = pattern.exec(path); match; match = pattern.exec(path)) {
    lastIndex = pattern.lastIndex;
    if (match[5]) {
      if (expectName) break;
      expectName = true;
      continue;
    }
    const segment: Segment =
      match[1] ?? (match[2] !== undefined ? Number(match[2]) : (match[3] ?? match[4]!));
    if (match[1] !== undefined && !expectName) break;
    segments.push(segment);
    expectName = false;
  }
  if (lastIndex !== path.length || segments.length === 0 || expectName) {
    throw new PipeworkError('PARAM_INVALID', `'${path}' is not a target path such as customer.name or lines[0].id.`, {
      parameter: 'rules',
    });
  }
  for (const s of segments) {
    if (typeof s === 'string' && FORBIDDEN.has(s)) {
      throw new PipeworkError('PARAM_INVALID', `A target path may not use '${s}'.`, { parameter: 'rules' });
    }
    if (typeof s === 'number' && s > 100_000) {
      throw new PipeworkError('PARAM_INVALID', `List index ${s} in '${path}' is too large.`, { parameter: 'rules' });
    }
  }
  return segments;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Sets `value` at the path inside `root` (a map), creating containers as the next segment needs. */
export function writeAtPath(root: Record<string, unknown>, segments: Segment[], value: unknown): void {
  let container: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    if (Array.isArray(container)) {
      if (typeof segment !== 'number') {
        throw new PipeworkError('PARAM_INVALID', `'${segment}' cannot name an item of a list.`, { parameter: 'rules' });
      }
      while (container.length < segment) container.push(null);
    } else if (typeof segment === 'number') {
      throw new PipeworkError('PARAM_INVALID', `[${segment}] cannot index a map.`, { parameter: 'rules' });
    }
    const slots = container as Record<string | number, unknown>;
    if (last) {
      slots[segment] = value;
      return;
    }
    let child = slots[segment];
    if (typeof next === 'number' ? !Array.isArray(child) : !isMap(child)) {
      child = typeof next === 'number' ? [] : {};
      slots[segment] = child;
    }
    container = child as Record<string, unknown> | unknown[];
  }
}
