import { describe, expect, it } from 'vitest';
import { bearer, signIn, testApp } from '../../test/test-app.ts';

const t = testApp({ signIn: false });

describe('startup and version', () => {
  it('serves /config.json at the root without sign-in', async () => {
    const res = await t.app.inject({ url: '/config.json' });
    expect(res.statusCode).toBe(200);
    // The test app has no PAGEWATCH_PUBLIC_URL: mails carry no links, and the console says so.
    expect(res.json()).toEqual({ API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: true, CLOUD: false, MAIL_LINKS: false });
  });

  it('gives the build version to a signed-in user', async () => {
    const res = await t.app.inject({ url: '/api/options/build-version/', headers: bearer(await signIn(t.app)) });
    expect(res.json()).toMatchObject({ appVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), buildNumber: expect.any(String), releaseDate: expect.any(String) });
  });

  it('gives the product page to every signed-in user, support contacts from the configuration', async () => {
    expect((await t.app.inject({ url: '/api/options/product/' })).statusCode).toBe(401);
    const res = await t.app.inject({ url: '/api/options/product/', headers: bearer(await signIn(t.app)) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ appVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), copyright: expect.stringContaining('Pagewatch'), support: { email: null, phone: null, url: null } });
  });

  it('documents the API as OpenAPI generated from the schemas', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/', '/api/users', '/api/users/{id}']));
    expect(JSON.stringify(doc.paths['/api/users'].post)).toContain('passwordHash');
  });

  it('answers unknown API paths with a JSON 404 and never a stack trace', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'ru' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Не найдено' });
    const badJson = await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.body).not.toMatch(/at .*\.ts:\d+/);
  });
});
