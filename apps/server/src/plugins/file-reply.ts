import type { FastifyReply } from 'fastify';

/** A file made for the caller: its body, its content type and its name in the caller's language. */
export type MadeFile = { body: unknown; contentType: string; filename: string };

/**
 * Sends a file for the browser to save: `asciiName` for old clients, the real name as UTF-8
 * (RFC 6266), and the headers the console reads across origins exposed.
 */
export function sendFile(reply: FastifyReply, file: MadeFile, asciiName: string, expose: string[] = []) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
    .header('access-control-expose-headers', ['Content-Disposition', ...expose].join(', '))
    .send(file.body);
}
