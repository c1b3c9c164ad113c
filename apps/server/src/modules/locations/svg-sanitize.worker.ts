import { parentPort, workerData } from 'node:worker_threads';
import { sanitizeSvg, SvgError } from './svg-sanitize.ts';

/** The worker of sanitizeSvgOffThread: the file's bytes in, the sanitised document's out. */
try {
  const svg = new TextEncoder().encode(sanitizeSvg(Buffer.from(workerData as Uint8Array).toString('utf8')));
  parentPort!.postMessage({ svg }, [svg.buffer]);
} catch (err) {
  if (!(err instanceof SvgError)) throw err;
  parentPort!.postMessage({ notSvg: true });
}
