import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

/** Whether a media query matches now (and re-renders when it changes). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const m = window.matchMedia(query);
      m.addEventListener('change', notify);
      return () => m.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * The height from an element's top (in the page, scrolled to the top) to the bottom of the
 * window, less `bottom` px, at least `min`: a screen that fills the window below its header
 * (the Ask tab's conversation). Follows resizes.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, { min = 360, bottom = 16, enabled = true } = {}): number | undefined {
  const [height, setHeight] = useState<number>();
  useEffect(() => {
    if (!enabled) {
      setHeight(undefined);
      return;
    }
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(min, Math.floor(window.innerHeight - top - bottom)));
    };
    measure();
    window.addEventListener('resize', measure);
    const ro = new ResizeObserver(measure);
    if (ref.current?.parentElement) ro.observe(ref.current.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      ro.disconnect();
    };
  }, [ref, min, bottom, enabled]);
  return height;
}
