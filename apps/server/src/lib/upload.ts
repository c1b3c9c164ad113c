import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from './app-error.ts';

export type UploadRule = {
  /** The form field that carries the file; other files are drained and ignored. */
  field: string;
  /** The file name's ending, lower case (`.txt`). */
  extension: string;
  /** Content types allowed besides the extension (none: any). */
  types?: RegExp;
  maxBytes: number;
  /** Message keys: no file, the wrong type, too large, and an empty file (by default as if none came). */
  keys: { missing: string; wrongType: string; tooLarge: string; empty?: string };
};

/**
 * The one file of a multipart upload, checked for its field, its name's ending and its size
 * before it is read whole: 400 without one or with an empty one, 415 of another type, 413 past
 * the limit; each names the field.
 */
export async function uploadedFile(req: FastifyRequest, rule: UploadRule): Promise<Buffer> {
  const { field, keys } = rule;
  if (!req.isMultipart()) throw invalid(field, keys.missing);
  let data: Buffer | null = null;
  for await (const part of req.parts({ limits: { fileSize: rule.maxBytes } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== field || data !== null) {
      await part.toBuffer().catch(() => null);
      continue;
    }
    const nameOk = (part.filename ?? '').toLowerCase().endsWith(rule.extension);
    if (!nameOk || (rule.types && !rule.types.test(part.mimetype ?? ''))) {
      await part.toBuffer().catch(() => null);
      throw new AppError('UNSUPPORTED_MEDIA', { fields: [{ field, key: keys.wrongType }] });
    }
    try {
      data = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('TOO_LARGE', { fields: [{ field, key: keys.tooLarge }] });
      throw err;
    }
  }
  if (data === null) throw invalid(field, keys.missing);
  if (data.length === 0) throw invalid(field, keys.empty ?? keys.missing);
  return data;
}
