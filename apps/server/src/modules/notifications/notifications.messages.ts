import { addMessages } from '../../i18n/messages.ts';

// The same keys as the console's notifications.json: zod messages in contracts are i18n keys.
addMessages({
  en: {
    'notification.badSchedule': 'Choose a schedule: daily, weekly on chosen days, or monthly on a day',
    'notification.badThreshold': 'The threshold is a whole number from 0 to 100',
    'notification.typeLocked': 'The type of a saved notification cannot change',
    'notification.reportLocked': 'The report of a saved notification cannot change',
    'notification.locationsRequired': 'Choose the locations the notification covers',
    'notification.subscriberOutOfScope': 'This user is outside your locations',
    'notification.noRecipients': 'The notification has no one to send to',
    'notification.noRecipientsInScope': 'None of the notification\'s recipients is in your locations',
    'notification.hiddenSubscribers': 'The notification also goes to users above your locations: only an administrator who sees them may change it',
    'notification.types.STATUS_CHANGE': 'Status change',
    'notification.types.IP_CHANGE': 'IP address change',
    'notification.types.MIN_CONSUMABLE_LEVEL': 'Low consumable level',
    'notification.types.PART_REPLACEMENT': 'Consumable replacement',
    'notification.types.REPORT': 'Report',
    'notification.types.COUNTERS': 'Page counters',
  },
  ru: {
    'notification.badSchedule': 'Выберите расписание: ежедневно, еженедельно по выбранным дням или ежемесячно в выбранный день',
    'notification.badThreshold': 'Порог — целое число от 0 до 100',
    'notification.typeLocked': 'Тип сохранённого уведомления изменить нельзя',
    'notification.reportLocked': 'Отчёт сохранённого уведомления изменить нельзя',
    'notification.locationsRequired': 'Выберите расположения, к которым относится уведомление',
    'notification.subscriberOutOfScope': 'Этот пользователь вне ваших расположений',
    'notification.noRecipients': 'У уведомления нет получателей',
    'notification.noRecipientsInScope': 'Ни один из получателей уведомления не входит в ваши расположения',
    'notification.hiddenSubscribers': 'Уведомление получают и пользователи над вашими расположениями: изменить его может только администратор, который их видит',
    'notification.types.STATUS_CHANGE': 'Изменение статуса',
    'notification.types.IP_CHANGE': 'Изменение IP-адреса',
    'notification.types.MIN_CONSUMABLE_LEVEL': 'Низкий уровень расходного материала',
    'notification.types.PART_REPLACEMENT': 'Замена расходного материала',
    'notification.types.REPORT': 'Отчёт',
    'notification.types.COUNTERS': 'Счётчики страниц',
  },
});
