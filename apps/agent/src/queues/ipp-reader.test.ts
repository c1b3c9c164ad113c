import { describe, expect, it } from 'vitest';
import { agentQueueJobSchema, type AgentQueue } from '@pagewatch/contracts/agent-queues';
import { fit, toJob } from './ipp-reader.ts';
import { sinceOf } from './read-queues.ts';

describe('IPP jobs as the agent sends them', () => {
  it('maps the job attributes, and fits every value to the contract', () => {
    const job = toJob({
      'job-id': 7, 'job-name': `report\u0000${'x'.repeat(300)}`, 'job-originating-user-name': 'alice', 'job-originating-host-name': 'pc-1',
      'time-at-creation': 1_780_000_000, 'time-at-completed': 1_780_000_060, 'job-impressions-completed': 4, 'job-k-octets': 12,
      media: 'iso_a4_210x297mm', sides: 'two-sided-long-edge',
    });
    expect(job).toMatchObject({
      externalJobId: 7, username: 'alice', clientMachine: 'pc-1', printedPageCount: 4, sizeKb: 12, paperSize: 'iso_a4_210x297mm', duplex: true,
      createdAt: new Date(1_780_000_000_000).toISOString(), completedAt: new Date(1_780_000_060_000).toISOString(), colorPageCount: null,
    });
    expect(job!.name).toHaveLength(255);
    expect(agentQueueJobSchema.safeParse(job).success).toBe(true);
  });

  it('counts sheets when impressions are not told, and leaves out jobs not completed', () => {
    expect(toJob({ 'job-id': 1, 'time-at-completed': 1_780_000_000, 'job-media-sheets-completed': 2, sides: 'one-sided' })).toMatchObject({ printedPageCount: 2, duplex: false, username: '' });
    expect(toJob({ 'job-id': 1, 'time-at-completed': 0 })).toBeNull();
    expect(toJob({ 'time-at-completed': 1_780_000_000 })).toBeNull();
    expect(fit('a\tb\nc', 10)).toBe('a b c');
  });
});

describe('colour pages', () => {
  const base = { 'job-id': 3, 'time-at-completed': 1_780_000_000 };
  it('the colour impressions where the server counts them by kind (one- and two-sided)', () => {
    const col = { 'full-color': 2, 'full-color-two-sided': 4, 'highlight-color': 1, monochrome: 5, 'monochrome-two-sided': 2, blank: 1 };
    expect(toJob({ ...base, 'job-impressions-completed': 15, 'job-impressions-completed-col': col })).toMatchObject({ printedPageCount: 15, colorPageCount: 7 });
    // The parser gives a collection as an object, or as an array of one.
    expect(toJob({ ...base, 'job-impressions-completed-col': [col] })).toMatchObject({ printedPageCount: 15, colorPageCount: 7 });
    expect(toJob({ ...base, 'job-impressions-completed': 4, 'job-impressions-completed-col': { monochrome: 4 } })).toMatchObject({ colorPageCount: 0 });
    // Never more colour pages than pages.
    expect(toJob({ ...base, 'job-impressions-completed': 2, 'job-impressions-completed-col': { 'full-color': 9 } })).toMatchObject({ colorPageCount: 2 });
  });

  it('0 for a job printed in monochrome mode; unknown (null), not 0, otherwise', () => {
    for (const mode of ['monochrome', 'process-monochrome', 'bi-level']) {
      expect(toJob({ ...base, 'job-impressions-completed': 3, 'print-color-mode': mode })).toMatchObject({ colorPageCount: 0 });
    }
    for (const mode of ['color', 'auto', 'auto-monochrome', undefined]) {
      expect(toJob({ ...base, 'job-impressions-completed': 3, 'print-color-mode': mode })).toMatchObject({ colorPageCount: null });
    }
    expect(toJob({ ...base, 'job-impressions-completed': 3, 'job-impressions-completed-col': {} })).toMatchObject({ colorPageCount: null });
  });
});

describe('where a queue is read from', () => {
  const q = (sinceJobId: number | null, stateVersion: number) => ({ id: 1, sinceJobId, stateVersion }) as AgentQueue;
  it('after what the server has, or what the agent spooled since; from the start after a reset', () => {
    expect(sinceOf(q(null, 0), {})).toBe(0);
    expect(sinceOf(q(5, 0), { 1: { stateVersion: 0, lastJobId: 9 } })).toBe(9);
    expect(sinceOf(q(12, 0), { 1: { stateVersion: 0, lastJobId: 9 } })).toBe(12);
    expect(sinceOf(q(null, 1), { 1: { stateVersion: 0, lastJobId: 9 } })).toBe(0);
  });
});
