import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';

/** A CPU hog beside a benchmark: every core kept busy, as on an agent host doing other work. */
export type Hog = { what: string; stop(): void };

/**
 * Starts `stress-ng --cpu N` (N the cores) when it is installed, else one busy-loop child
 * process a core; `stop()` ends it by its PID (stress-ng ends its workers on SIGTERM).
 */
export function startHog(cores = cpus().length): Hog {
  const stressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
  const children: ChildProcess[] = stressNg
    ? [spawn('stress-ng', ['--cpu', String(cores), '--quiet'], { stdio: 'ignore' })]
    : Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    what: stressNg ? `stress-ng --cpu ${cores}` : `${cores} busy-loop processes`,
    stop: () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
