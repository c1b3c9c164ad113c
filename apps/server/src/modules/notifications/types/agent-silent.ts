import { fireDigest, type TypeHandler } from './handler.ts';

/** An agent fell silent or was heard again: told by the alerts' pass (../dispatcher.ts), digested on a schedule. */
export const agentSilent: TypeHandler = { fire: fireDigest };
