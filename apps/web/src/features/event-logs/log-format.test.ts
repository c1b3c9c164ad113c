import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDuration, logLiveHandler, objectHref } from './log-format.ts';

describe('log formatting', () => {
  it('shows the duration in seconds with 3 decimals', () => {
    expect(formatDuration(1234)).toBe('1.234');
    expect(formatDuration(5)).toBe('0.005');
    expect(formatDuration(0)).toBe('0.000');
    expect(formatDuration(null)).toBe('');
  });

  it('links users, agents and network ranges only', () => {
    expect(objectHref('UserDao', 7)).toBe('/user/7');
    expect(objectHref('AgentDao', 3)).toBe('/agent/3');
    expect(objectHref('NetworkRangeDao', 9)).toBe('/network/9');
    expect(objectHref('DeviceDao', 9)).toBeNull();
    expect(objectHref(null, null)).toBeNull();
  });
});

describe('log detail live rules', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reloads 500 ms after a response or a change (once per burst), ignores other records', () => {
    const reload = vi.fn();
    const stop = vi.fn();
    const live = logLiveHandler(5, { reload, stop });
    live.onMessage({ type: 'response', command: 'subscribe-log-events', ok: true });
    vi.advanceTimersByTime(499);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
    live.onMessage({ type: 'EVENT_LOG_CHANGED', id: 5 });
    live.onMessage({ type: 'EVENT_LOG_CHANGED', id: 5 });
    live.onMessage({ type: 'EVENT_LOG_CHANGED', id: 6 });
    vi.advanceTimersByTime(500);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(stop).not.toHaveBeenCalled();
  });

  it('reloads at once and stops on FINISHED; nothing after that', () => {
    const reload = vi.fn();
    const stop = vi.fn();
    const live = logLiveHandler(5, { reload, stop });
    live.onMessage({ type: 'EVENT_LOG_CHANGED', id: 5 });
    live.onMessage({ type: 'EVENT_LOG_FINISHED', id: 5 });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledTimes(1);
    live.onMessage({ type: 'EVENT_LOG_CHANGED', id: 5 });
    vi.advanceTimersByTime(1000);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
