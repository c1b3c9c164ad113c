import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AgentConfig, AgentReading } from '@pagewatch/contracts/agent-api';
import {
  agentRegisterSchema, agentUpdateRefusedSchema, agentRunFinishSchema, agentRunProblemSchema, agentRunStartSchema, agentStatusReportSchema, readingBatchSchema,
} from '@pagewatch/contracts/agent-api';
import { loadDefaultModelsPack } from '@pagewatch/snmp/models-pack';

/**
 * A stand-in for the server's agent API, for the runner's own tests (status transitions, spool,
 * outages): it checks every body against the contract and stores readings by id, as the real
 * ingest does. `down` makes it drop connections, as a stopped server would.
 */
export type FakeAgentServer = {
  url: string;
  token: string;
  config: AgentConfig;
  readings: Map<string, AgentReading>;
  /** Every call in arrival order: "register", "status:RUNNING", "run-start:<id>", "readings:<n>", "finish:<id>"… */
  calls: string[];
  statuses: string[];
  /** The spool depth each status report carried (undefined when it carried none). */
  spoolDepths: (number | undefined)[];
  duplicates: number;
  down: boolean;
  /** Answer every run and readings call with this status (a failing server), when set. */
  failStatus: number | null;
  /** Readings with these serials are refused one by one, as the real server refuses a bad reading. */
  rejectSerials: Set<string>;
  /** How many run and readings calls arrived (failed ones too). */
  deliveries: number;
  /** The id of every reading posted, in order, whatever the answer (a reading sent twice is here twice). */
  postedIds: string[];
  /** Posts of readings, whatever the answer. */
  readingPosts: number;
  /** The version each registration carried, in order. */
  versions: string[];
  /** The executable GET /update/:platform serves (the update offered in config.update). */
  updateFile: string | null;
  /** Goes down (as `down`) once it has served the update: the new version cannot check in. */
  downAfterUpdate: boolean;
  /** Each POST /update/refused. */
  refusedUpdates: { version: string; error: string }[];
  close(): Promise<void>;
};

export async function startFakeAgentServer(config: AgentConfig, token = 'agent-token-1'): Promise<FakeAgentServer> {
  const state = {
    token, config, readings: new Map<string, AgentReading>(), calls: [] as string[], statuses: [] as string[], spoolDepths: [] as (number | undefined)[], duplicates: 0, down: false,
    failStatus: null as number | null, rejectSerials: new Set<string>(), deliveries: 0, postedIds: [] as string[], readingPosts: 0,
    versions: [] as string[], updateFile: null as string | null, downAfterUpdate: false, refusedUpdates: [] as { version: string; error: string }[],
  };
  const sockets = new Set<Socket>();
  const server = http.createServer(async (req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    const send = (status: number, body?: unknown): void => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${state.token}`) return send(401, { code: 'UNAUTHORIZED', message: 'bad agent token' });
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    const path = (req.url ?? '').replace(/^\/api\/agent/, '');
    const check = <T>(schema: { safeParse(v: unknown): { success: boolean; data?: T; error?: unknown } }): T | null => {
      const r = schema.safeParse(body);
      if (!r.success) {
        send(400, { code: 'VALIDATION', message: JSON.stringify(r.error).slice(0, 300) });
        return null;
      }
      return r.data as T;
    };
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && (path === '/readings' || path.startsWith('/runs'))) {
      state.deliveries++;
      if (path === '/readings') state.readingPosts++;
      if (path === '/readings') for (const r of (body as { readings?: { id?: string }[] } | undefined)?.readings ?? []) state.postedIds.push(String(r.id));
      if (state.failStatus !== null) return send(state.failStatus, { code: 'FAILING', message: `failing with ${state.failStatus}` });
    }
    if (req.method === 'POST' && path === '/register') {
      const r = check<{ version: string }>(agentRegisterSchema);
      if (!r) return;
      state.calls.push('register');
      state.versions.push(r.version);
      return send(200, state.config);
    }
    if (req.method === 'GET' && path === '/config') return send(200, state.config);
    if (req.method === 'GET' && path === '/models-pack') return send(200, loadDefaultModelsPack());
    if (req.method === 'POST' && path === '/status') {
      const s = check<{ status: string; spoolDepth?: number }>(agentStatusReportSchema);
      if (!s) return;
      state.statuses.push(s.status);
      state.spoolDepths.push(s.spoolDepth);
      return send(204);
    }
    if (req.method === 'GET' && /^\/update\/[\w-]+$/.test(path)) {
      if (!state.updateFile) return send(404, { code: 'NOT_FOUND', message: 'no update' });
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(state.updateFile).pipe(res);
      res.on('finish', () => {
        if (state.downAfterUpdate) state.down = true;
      });
      return;
    }
    if (req.method === 'POST' && path === '/update/refused') {
      const r = check<{ version: string; error: string }>(agentUpdateRefusedSchema);
      if (!r) return;
      state.refusedUpdates.push(r);
      return send(204);
    }
    if (req.method === 'POST' && path === '/runs') {
      const r = check<{ runId: string }>(agentRunStartSchema);
      if (!r) return;
      state.calls.push(`run-start:${r.runId}`);
      return send(200, { logId: 1 });
    }
    if (req.method === 'POST' && (m = /^\/runs\/([^/]+)\/problems$/.exec(path))) {
      if (!check(agentRunProblemSchema)) return;
      state.calls.push(`problem:${m[1]}`);
      return send(204);
    }
    if (req.method === 'POST' && (m = /^\/runs\/([^/]+)\/finish$/.exec(path))) {
      if (!check(agentRunFinishSchema)) return;
      state.calls.push(`finish:${m[1]}`);
      return send(204);
    }
    if (req.method === 'POST' && path === '/readings') {
      const batch = check<{ readings: AgentReading[] }>(readingBatchSchema);
      if (!batch) return;
      let stored = 0;
      const rejected: { index: number; id: string; status: number; code: string; message: string }[] = [];
      for (const [index, r] of batch.readings.entries()) {
        if (r.reading.serialNumber && state.rejectSerials.has(r.reading.serialNumber)) rejected.push({ index, id: r.id, status: 400, code: 'VALIDATION', message: 'refused by the test' });
        else if (state.readings.has(r.id)) state.duplicates++;
        else {
          state.readings.set(r.id, r);
          stored++;
        }
      }
      state.calls.push(`readings:${batch.readings.length}`);
      return send(200, { stored, duplicates: batch.readings.length - stored - rejected.length, rejected });
    }
    send(404, { code: 'NOT_FOUND', message: 'not found' });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const fake = state as unknown as FakeAgentServer;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}
