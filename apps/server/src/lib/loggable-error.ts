/** An error as it may be written to the server log or the event log. */
export type LoggableError = {
  type: string;
  message: string;
  stack: string;
  code?: string;
  table?: string;
  constraint?: string;
  column?: string;
  cause?: LoggableError;
};

/**
 * The error without the values it may carry: Drizzle writes a failed statement's bound values
 * (a password hash, a token, an SNMP community) into its message ("params: …") and keeps them
 * in `params`; PostgreSQL's `detail` ("Failing row contains (…)", "Key (…)=(…)") and `where`
 * quote rows. What is kept is what points at the fault: the statement with its placeholders,
 * the error code, the table, constraint and column, and the stack.
 */
export function loggableError(err: unknown, depth = 0): LoggableError {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err).slice(0, 500), stack: '' };
  const e = err as Error & { query?: unknown; params?: unknown; code?: unknown; table?: unknown; constraint?: unknown; column?: unknown };
  let message = e.message;
  let stack = e.stack ?? '';
  if (typeof e.query === 'string' && e.message.startsWith('Failed query:')) {
    message = `Failed query: ${e.query}`;
    // The stack starts with the message; keep only its call sites after the safe message.
    stack = [`${e.name}: ${message}`, ...stack.split('\n').filter((l) => /^\s+at /.test(l))].join('\n');
  }
  const out: LoggableError = { type: e.constructor?.name || e.name, message, stack };
  for (const k of ['code', 'table', 'constraint', 'column'] as const) if (typeof e[k] === 'string') out[k] = e[k] as string;
  if (e.cause !== undefined && depth < 5) out.cause = loggableError(e.cause, depth + 1);
  return out;
}

/** One line for people: the innermost cause (the database's own words) and where it came from. */
export function errorSummary(err: LoggableError): string {
  let root = err;
  while (root.cause) root = root.cause;
  const text = root === err ? err.message : `${root.message} (${err.message})`;
  return text.split('\n')[0];
}

/** The stack with the stacks of its causes, for the event log. */
export function fullStack(err: LoggableError): string {
  return err.cause ? `${err.stack}\ncaused by: ${fullStack(err.cause)}` : err.stack;
}
