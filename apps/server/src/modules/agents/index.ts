/** The agents module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { AgentsService } from './agents.service.ts';
export { agentById } from './agents.repository.ts';
export { AgentReleaseSource } from './agent-release.ts';
