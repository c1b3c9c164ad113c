/** The auth module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { AuthService, newToken, parseBasic } from './auth.service.ts';
export { countTestMail, PACE, paceTurn, throttleKey, THROTTLE_KEEP_MS } from './throttle.ts';
/** For settings that redirect mail: the caller's password asked again. */
export { confirmPassword } from './confirm-password.ts';
/** For the pruning jobs. */
export { pruneCounters, pruneRestoreTokens, pruneSessions } from './auth.repository.ts';
/** For API tokens: the caller a token's user is now. */
export { loadCaller } from './load-caller.ts';
