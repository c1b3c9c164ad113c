import { z } from 'zod';

// The server's Content-Security-Policy forbids eval (script-src 'self'). Zod compiles object
// parsers with new Function unless told not to, and merely probing for that is reported as a
// CSP violation. Object schemas read this flag when they are built, so main.tsx imports this
// module before anything that defines a schema.
z.config({ jitless: true });
