import { describe, expect, it } from 'vitest';
import { bearer, testApp } from './test/test-app.ts';
import { ensureBuiltinAgent } from './modules/agents/builtin-agent.ts';

/**
 * A new installation names what it makes (the DEFAULT location, the administrator, the built-in
 * agent) in the server's language, PAGEWATCH_LANGUAGE (issue 56: a Russian console showed
 * "Default", "Administrator" and "Built-in agent" in English).
 */
describe.each([
  ['en', 'Default', 'Administrator', 'Built-in agent'],
  ['ru', 'По умолчанию', 'Администратор', 'Встроенный агент'],
] as const)('a new installation in %s', (language, location, admin, agent) => {
  const t = testApp({ language });

  it('names its DEFAULT location, its administrator and its built-in agent in that language', async () => {
    await ensureBuiltinAgent(t.ctx);
    const get = (url: string) => t.app.inject({ url, headers: bearer(t.admin) }).then((r) => r.json());
    const locations = (await get('/api/user-locations/')).pageRows as { code: string; name: string }[];
    expect(locations.find((l) => l.code === 'DEFAULT')?.name).toBe(location);
    expect((await get('/api/users/me')).lastName).toBe(admin);
    const agents = (await get('/api/agents/page?page=5,1')).pageRows as { name: string; description: string | null }[];
    expect(agents.map((a) => a.name)).toEqual([agent]);
  });
});
