import { pipeline, Transform, type Readable } from 'node:stream';

/**
 * The streamed answer's framing (contracts' webProxyHeadSchema): reads the head's length and the
 * head off `body`, and leaves the device's bytes in it, unread. Throws when the head is longer
 * than `max` or the body ends first.
 */
export function readHead(body: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const finish = (error: Error | null, head?: Buffer) => {
      body.off('readable', onReadable).off('end', onEnd).off('error', finish);
      if (error) reject(error);
      else resolve(head!);
    };
    const onEnd = () => finish(new Error('the answer ended before its head'));
    function onReadable() {
      let chunk: Buffer | null;
      while ((chunk = body.read() as Buffer | null) !== null) {
        got = Buffer.concat([got, chunk]);
        if (got.length < 4) continue;
        const length = got.readUInt32BE(0);
        if (length > max) return finish(new Error('the head is too long'));
        if (got.length < 4 + length) continue;
        const rest = got.subarray(4 + length);
        if (rest.length) body.unshift(rest);
        return finish(null, got.subarray(4, 4 + length));
      }
    }
    body.on('readable', onReadable).once('end', onEnd).once('error', finish);
  });
}

/** `body` that errors past `max` bytes (the browser's answer is cut); destroying either end destroys both. */
export function upTo(body: Readable, max: number): Readable {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      seen += chunk.length;
      if (seen > max) next(new Error(`more than ${max} bytes`));
      else next(null, chunk);
    },
  });
  pipeline(body, out, () => undefined);
  return out;
}

/** All of `body`, or null past `max` bytes (it is destroyed then). */
export async function wholeOf(body: Readable, max: number): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      return null;
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}
