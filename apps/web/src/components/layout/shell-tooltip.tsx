import { useEffect, useState, type ComponentType } from 'react';
import type { TooltipProps } from '@mantine/core';

/**
 * Mantine's tooltip brings Floating UI (about 20 KB gzip) that nothing else in the shell needs,
 * so the shell's tooltips (the collapsed menu's names, sign out) arrive as a chunk of their own
 * (issue 22: the start under 200 KB). They are asked for once the first screen has had its
 * chance: a second after the shell appears, when the browser is idle, so they never compete
 * with a screen's chunks and first rows. Until then each element shows without a tooltip; its
 * accessible name is its own `aria-label`, not the tooltip's.
 */
const DELAY_MS = 1_000;
let Tooltip: ComponentType<TooltipProps> | null = null;
let loading: Promise<void> | null = null;

function loadTooltip(): Promise<void> {
  loading ??= new Promise<void>((resolve) => setTimeout(() => requestIdleCallback(() => resolve(), { timeout: DELAY_MS }), DELAY_MS))
    .then(() => import('./shell-tooltip-chunk.ts'))
    .then((m) => void (Tooltip = m.default));
  return loading;
}

export function ShellTooltip({ children, ...props }: TooltipProps) {
  const [, setLoaded] = useState(Tooltip !== null);
  useEffect(() => {
    if (Tooltip) return;
    let mounted = true;
    // A chunk that does not load leaves the shell without tooltips, nothing else.
    loadTooltip().then(() => mounted && setLoaded(true), () => undefined);
    return () => void (mounted = false);
  }, []);
  return Tooltip ? <Tooltip {...props}>{children}</Tooltip> : children;
}
