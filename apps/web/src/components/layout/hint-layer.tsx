import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import classes from './hint-layer.module.css';

/** As long as Mantine's tooltips wait before they open. */
const OPEN_DELAY_MS = 300;
/** The gap between the element and its hint, and the least room kept to the window's edges. */
const GAP = 8;
const HINT_ID = 'pw-hint';

/**
 * The hint of the element under the pointer or in focus: `data-hint="…"`, shown above it (below
 * when there is no room; beside it with `data-hint-position="right"`) after a short delay, as a
 * tooltip (`role="tooltip"`, the element described by it). Grid cells show many small marks
 * (supply levels, colours, flags, derived counters); a Mantine Tooltip each made every row mount
 * several floating-element hooks, a tenth of the devices grid's first render (issue 22). One
 * layer in the shell serves them all, and the shell's own hints (the collapsed menu's names).
 */
export function HintLayer() {
  const [hint, setHint] = useState<{ text: string; target: Element } | null>(null);
  const tipRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: Element | null = null;
    const hide = () => {
      clearTimeout(timer);
      current = null;
      setHint(null);
    };
    const enter = (e: Event) => {
      const el = e.target instanceof Element ? e.target.closest('[data-hint]') : null;
      if (el === current) return;
      hide();
      if (!el) return;
      current = el;
      timer = setTimeout(() => setHint({ text: el.getAttribute('data-hint') ?? '', target: el }), OPEN_DELAY_MS);
    };
    const leaveWindow = (e: Event) => (e as PointerEvent).relatedTarget === null && hide();
    const escape = (e: Event) => (e as KeyboardEvent).key === 'Escape' && hide();
    const listeners: [EventTarget, string, (e: Event) => void][] = [
      [document, 'pointerover', enter],
      [document, 'focusin', enter],
      [document, 'focusout', hide],
      [document, 'pointerout', leaveWindow],
      [document, 'pointerdown', hide],
      [document, 'keydown', escape],
      // A hint stays by its element: scrolling moves the element, so a shown hint goes. One
      // still waiting stays: bringing an element into view scrolls just before it is pointed at.
      [window, 'scroll', () => setHint(null)],
    ];
    for (const [target, type, fn] of listeners) target.addEventListener(type, fn, true);
    return () => {
      clearTimeout(timer);
      for (const [target, type, fn] of listeners) target.removeEventListener(type, fn, true);
    };
  }, []);

  // Placed once its own size is known, before it is painted.
  useLayoutEffect(() => {
    const tip = tipRef.current;
    if (!hint || !tip) return;
    // The element may have left the page (a grid's new page) between the pointer and the delay.
    if (!hint.target.isConnected) return setHint(null);
    const r = hint.target.getBoundingClientRect();
    const { offsetWidth: w, offsetHeight: h } = tip;
    const clamp = (v: number, room: number) => Math.round(Math.max(GAP, Math.min(v, room - GAP)));
    let left: number;
    let top: number;
    if (hint.target.getAttribute('data-hint-position') === 'right') {
      left = r.right + GAP;
      top = r.top + r.height / 2 - h / 2;
    } else {
      const above = r.top - h - GAP;
      top = above >= GAP || r.bottom + GAP + h > window.innerHeight ? above : r.bottom + GAP;
      left = r.left + r.width / 2 - w / 2;
    }
    tip.style.transform = `translate(${clamp(left, window.innerWidth - w)}px, ${clamp(top, window.innerHeight - h)}px)`;
    tip.style.visibility = 'visible';
    hint.target.setAttribute('aria-describedby', HINT_ID);
    return () => hint.target.removeAttribute('aria-describedby');
  }, [hint]);

  if (!hint) return null;
  return (
    <div ref={tipRef} id={HINT_ID} role="tooltip" className={classes.hint}>
      {hint.text}
    </div>
  );
}
