import { translate, type Lang } from '../../i18n/messages.ts';
import './alerts.messages.ts';

/**
 * How long an alert lasted, as a mail says it: "3 h 12 min", "1 d 1 h", "0 min". Two units at
 * most: a reader wants the size of it, not the seconds.
 */
export function formatDuration(ms: number, lang: Lang): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const parts: [string, number][] = [['days', Math.floor(minutes / 1440)], ['hours', Math.floor(minutes / 60) % 24], ['minutes', minutes % 60]];
  const first = parts.findIndex(([, n]) => n > 0);
  if (first < 0) return translate(lang, 'alerts.duration.minutes', { n: 0 });
  return parts.slice(first, first + 2).filter(([, n]) => n > 0).map(([unit, n]) => translate(lang, `alerts.duration.${unit}`, { n })).join(' ');
}
