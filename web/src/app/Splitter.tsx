/** A draggable divider between two panes; the size it sets is remembered for the next visit. */
import { useCallback, useState, type PointerEvent as ReactPointerEvent, type KeyboardEvent } from 'react';

export interface SplitOptions {
  /** Where the size is remembered (localStorage: a layout preference, nothing private). */
  storageKey: string;
  initial: number;
  min: number;
  max: number;
}

function stored(key: string, fallback: number): number {
  const value = Number(localStorage.getItem(key));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function useSplitSize({ storageKey, initial, min, max }: SplitOptions) {
  const [size, setSize] = useState(() => Math.min(max, Math.max(min, stored(storageKey, initial))));
  const set = useCallback(
    (next: number) => {
      const clamped = Math.round(Math.min(max, Math.max(min, next)));
      setSize(clamped);
      localStorage.setItem(storageKey, String(clamped));
    },
    [storageKey, min, max],
  );
  return [size, set] as const;
}

export interface SplitterProps {
  orientation: 'vertical' | 'horizontal';
  size: number;
  onSize(size: number): void;
  /** +1 when dragging right/down grows the pane, -1 when it shrinks it. */
  direction: 1 | -1;
  label: string;
}

export function Splitter({ orientation, size, onSize, direction, label }: SplitterProps) {
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const start = orientation === 'vertical' ? event.clientX : event.clientY;
    const startSize = size;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => {
      const at = orientation === 'vertical' ? e.clientX : e.clientY;
      onSize(startSize + direction * (at - start));
    };
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.shiftKey ? 60 : 20;
    const grow = orientation === 'vertical' ? 'ArrowRight' : 'ArrowDown';
    const shrink = orientation === 'vertical' ? 'ArrowLeft' : 'ArrowUp';
    if (event.key === grow) onSize(size + direction * step);
    else if (event.key === shrink) onSize(size - direction * step);
  };
  return (
    <div
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuenow={size}
      tabIndex={0}
      className={`wb-splitter wb-splitter-${orientation}`}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
