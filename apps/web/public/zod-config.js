// The server's Content-Security-Policy forbids eval (script-src 'self'). Zod compiles object
// parsers with new Function unless told not to, and merely probing for that is reported as a
// CSP violation. Zod reads this global when it loads; a classic script runs before every module
// chunk, whichever chunk holds zod and the schemas.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
