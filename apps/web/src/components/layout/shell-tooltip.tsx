import { lazy, Suspense } from 'react';
import type { TooltipProps } from '@mantine/core';

/**
 * Mantine's tooltip brings Floating UI (about 20 KB gzip) that nothing else in the shell needs,
 * so the shell's tooltips arrive as a chunk of their own after the first render (issue 22: the
 * start under 200 KB). Until then the element shows without one; its accessible name is its
 * own `aria-label`, not the tooltip's.
 */
const Tooltip = lazy(() => import('./shell-tooltip-chunk.ts'));

export function ShellTooltip({ children, ...props }: TooltipProps) {
  return (
    <Suspense fallback={children}>
      <Tooltip {...props}>{children}</Tooltip>
    </Suspense>
  );
}
