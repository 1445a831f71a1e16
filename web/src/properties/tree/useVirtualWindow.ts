/** Windowing for long lists of fixed-height rows: only the rows in view (plus a margin) are rendered. */
import { useCallback, useEffect, useState, type UIEvent } from 'react';

const OVERSCAN = 12;

export function useVirtualWindow(count: number, rowHeight: number) {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    if (!element) return undefined;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);

  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    setScrollTop(event.currentTarget.scrollTop);
  }, []);

  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const end = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  /** Scrolls just enough for row `index` to be in view. */
  const scrollTo = useCallback(
    (index: number) => {
      if (!element) return;
      const top = index * rowHeight;
      let next = element.scrollTop;
      if (top < next) next = top;
      else if (top + rowHeight > next + element.clientHeight) next = top + rowHeight - element.clientHeight;
      if (next !== element.scrollTop) element.scrollTo({ top: next });
      setScrollTop(next);
    },
    [element, rowHeight],
  );

  return { attach: setElement, onScroll, start, end, totalHeight: count * rowHeight, scrollTo };
}
