import type { ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { rmSync } from 'node:fs';

/**
 * Stops a child process and resolves once it has exited: SIGTERM, then SIGKILL after `graceMs`.
 * A folder the process wrote in may be removed only after this, or its last writes race the removal.
 */
export async function stopChild(child: ChildProcess | null | undefined, graceMs = 5000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** Removes a folder, retrying while a file system still settles (ENOTEMPTY, EBUSY). */
export function removeDir(dir: string | null | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/** A UDP port on 127.0.0.1 that nothing listens on now, chosen by the system. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
