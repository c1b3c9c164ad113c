import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** The simulated fleet as the benchmark sees it: its first and last address and its network. */
export type SimChild = { child: ChildProcess; first: string; last: string; network: Record<string, number>; stop(): void };

/**
 * Starts `tools/printer-sim` in a child process (so the printers have a core of their own) and
 * waits for its two lines: the addresses, then how many printers are normal, slow, asleep, silent.
 */
export async function startSimulator(args: string[]): Promise<SimChild> {
  const child = spawn(process.execPath, ['tools/printer-sim/src/cli.ts', '--speed', '0', '--no-random-events', '--control-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const out = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.split('\n').length > 2) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const m = /on (\S+)–(\S+) port/.exec(out);
  if (!m) throw new Error(`unexpected simulator output: ${out}`);
  const network: Record<string, number> = {};
  for (const [, n, kind] of out.matchAll(/(\d+) (normal|slow|asleep|silent)/g)) network[kind!] = Number(n);
  return {
    child, first: m[1]!, last: m[2]!, network,
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}
