import { addMessages } from '../../i18n/messages.ts';

// Alerts (issue 42): the mails' lines around a notification's own text, and the API's answers.
addMessages({
  en: {
    'alerts.resolvedSubject': 'Resolved: {{subject}}',
    'alerts.resolvedAfter': 'Resolved after {{duration}}.',
    'alerts.repeatSubject': 'Still open: {{subject}}',
    'alerts.openFor': 'Open for {{duration}}, not acknowledged.',
    'alerts.duration.days': '{{n}} d',
    'alerts.duration.hours': '{{n}} h',
    'alerts.duration.minutes': '{{n}} min',
    'alerts.notOpen': 'The alert is resolved already',
    'alerts.backOnlineSubject': 'Back online: {{subject}}',
    'alerts.backOnlineAfter': 'Back online after {{duration}}.',
  },
  ru: {
    'alerts.resolvedSubject': 'Решено: {{subject}}',
    'alerts.resolvedAfter': 'Решено через {{duration}}.',
    'alerts.repeatSubject': 'Всё ещё открыто: {{subject}}',
    'alerts.openFor': 'Открыто {{duration}}, не подтверждено.',
    'alerts.duration.days': '{{n}} д',
    'alerts.duration.hours': '{{n}} ч',
    'alerts.duration.minutes': '{{n}} мин',
    'alerts.notOpen': 'Оповещение уже закрыто',
    'alerts.backOnlineSubject': 'Снова доступно: {{subject}}',
    'alerts.backOnlineAfter': 'Снова доступно через {{duration}}.',
  },
});
