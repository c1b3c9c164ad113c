import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers on every answer, the console's and the API's. Routes that serve uploaded
 * files (room plans) set their own stricter Content-Security-Policy over this one.
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  // The built console is one module script from /assets; nothing inline, nothing evaluated.
  scriptSrc: ["'self'"],
  // Mantine writes <style> elements (its CSS variables) and style attributes at run time, and
  // the charts style their SVG inline: without 'unsafe-inline' the console loses its layout.
  // Inline styles cannot run code, so scripts stay 'self' only.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Mantine's icons (checkbox marks, select chevrons) are data: SVGs; downloads are blob: URLs.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // 'self' covers ws:/wss: to the same host and port (CSP level 3): the live events socket.
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export async function setupSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    // Old browsers that ignore frame-ancestors.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Pagewatch often runs on plain HTTP inside a LAN: HSTS and upgrade-insecure-requests are
    // the business of the TLS proxy in front of it, where there is one.
    strictTransportSecurity: false,
  });
}
