import { readFileSync } from 'node:fs';

/** Set by the single-file build (scripts/build-agent.ts); absent when the agent runs from source. */
declare const PAGEWATCH_AGENT_VERSION: string | undefined;

/**
 * The agent's version: the build's own (a single-file agent has no package.json beside it), else
 * the package's. The server compares it with the release it carries to offer an update.
 */
export const AGENT_VERSION: string = typeof PAGEWATCH_AGENT_VERSION === 'string'
  ? PAGEWATCH_AGENT_VERSION
  : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
