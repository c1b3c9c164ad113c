// The chunk of ShellTooltip: Mantine's tooltip as a default export for React.lazy.
export { Tooltip as default } from '@mantine/core';
