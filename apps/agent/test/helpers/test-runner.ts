import type { AgentRunnerOptions } from '../../src/run/agent-runner.ts';

/**
 * Runner options for the integration tests against simulated printers: generous SNMP timeouts
 * (the machine running the tests may be busy; silent addresses cost little in a small range),
 * and short retry and seal delays so that a test sees its readings at once.
 */
export function integrationRunnerOptions(base: Pick<AgentRunnerOptions, 'transport' | 'spoolDir'>, overrides: Partial<AgentRunnerOptions> = {}): AgentRunnerOptions {
  return {
    ...base,
    discovery: { timeoutMs: 1000, retries: 1 },
    poll: { timeoutMs: 1000, retries: 1 },
    retryMinMs: 100,
    retryMaxMs: 500,
    sealAfterMs: 100,
    ...overrides,
  };
}
