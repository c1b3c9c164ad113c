import { once } from 'node:events';
import type { PassThrough } from 'node:stream';
import { constants, crc32, createDeflateRaw } from 'node:zlib';
import { drained } from './row-pages.ts';

/** Text handed to a deflater in pieces of about this many characters. */
const PIECE = 64 * 1024;

/** A DOS time and date (what a zip entry holds), for `at`. */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((at.getFullYear() - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** Where an entry went, for the central directory. */
type Written = { name: Buffer; crc: number; compressed: number; size: number; offset: number };

/**
 * A zip written to `out` as its entries are made (issue 53): each entry deflated by zlib
 * (native, off the event loop's thread) while its text is written, its CRC and sizes in a data
 * descriptor after it, the central directory at the end. Nothing is held but the piece being
 * deflated: the writer waits while `out`'s reader is behind. Entries are under 4 GB in all (no
 * ZIP64): a report of a million rows is a few hundred MB of XML.
 */
export class ZipStream {
  private readonly out: PassThrough;
  private readonly at = dosTime(new Date());
  private readonly written: Written[] = [];
  private offset = 0;

  constructor(out: PassThrough) {
    this.out = out;
  }

  private async put(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    this.out.write(chunk);
    await drained(this.out);
  }

  /** An entry whose text `fill` writes through `write` (awaited: it waits while the reader is behind). */
  async entry(name: string, fill: (write: (text: string) => Promise<void>) => Promise<void>): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4); // version needed: deflate
    head.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 name
    head.writeUInt16LE(8, 8); // deflate
    head.writeUInt16LE(this.at.time, 10);
    head.writeUInt16LE(this.at.date, 12);
    head.writeUInt16LE(nameBytes.length, 26);
    await this.put(Buffer.concat([head, nameBytes]));

    // Level 1: a sheet's XML is repetitive enough that the fastest level is within a few percent of the default's size.
    const deflate = createDeflateRaw({ level: 1, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY });
    let compressed = 0;
    const flowing = (async () => {
      for await (const chunk of deflate) {
        compressed += (chunk as Buffer).length;
        await this.put(chunk as Buffer);
      }
    })();
    let crc = 0;
    let size = 0;
    let pending = '';
    const flush = async () => {
      const bytes = Buffer.from(pending, 'utf8');
      pending = '';
      crc = crc32(bytes, crc);
      size += bytes.length;
      if (!deflate.write(bytes)) await Promise.race([once(deflate, 'drain'), flowing]);
    };
    try {
      await fill(async (text) => {
        pending += text;
        if (pending.length >= PIECE) await flush();
      });
      if (pending) await flush();
      deflate.end();
      await flowing;
    } catch (err) {
      // The reader went away (or the rows failed): the deflater's reading ends with it, unheard.
      flowing.catch(() => undefined);
      deflate.destroy();
      throw err;
    }
    if (size > 0xffffffff || this.offset > 0xffffffff) throw new Error('a zip of more than 4 GB needs ZIP64, which this writer does not write');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.put(descriptor);
    this.written.push({ name: nameBytes, crc, compressed, size, offset });
  }

  /** The central directory and its end record; then `out` ends. */
  async end(): Promise<void> {
    const start = this.offset;
    for (const w of this.written) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.at.time, 12);
      h.writeUInt16LE(this.at.date, 14);
      h.writeUInt32LE(w.crc >>> 0, 16);
      h.writeUInt32LE(w.compressed, 20);
      h.writeUInt32LE(w.size, 24);
      h.writeUInt16LE(w.name.length, 28);
      h.writeUInt32LE(w.offset, 42);
      await this.put(Buffer.concat([h, w.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.out.end(end);
  }
}
