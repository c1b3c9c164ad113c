import { useLayoutEffect, useState, type RefObject } from 'react';

/** Below this the grid does not shrink: header, a few rows and the pager must stay usable. */
const MIN_FILL_HEIGHT = 260;

/**
 * The grid's own height when it fills the page: from its top to the bottom of the window,
 * less `offset` for what the page shows below it. Without an offset it uses the bottom
 * padding of the enclosing <main>, where the shell reserves room for its footer.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, enabled: boolean, offset?: number): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (!enabled) return;
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      const main = el.closest('main');
      const below = offset ?? (main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 16);
      setHeight(Math.max(MIN_FILL_HEIGHT, Math.floor(window.innerHeight - top - below)));
    };
    measure();
    // Content above the grid (breadcrumb, alerts) can change without a window resize.
    const ro = new ResizeObserver(measure);
    ro.observe(document.body);
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref, enabled, offset]);
  return height;
}

/** An element's height, kept current. */
export function useHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return height;
}
