import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'auth.defaultAdminOnly': 'Only an administrator of the DEFAULT location may change instance settings',
    'auth.tooManyRequests': 'Too many requests; try again in {{seconds}} seconds',
    'auth.tooManyTestMails': 'Too many test e-mails; try again in {{seconds}} seconds',
  },
  ru: {
    'auth.defaultAdminOnly': 'Настройки экземпляра может менять только администратор расположения DEFAULT',
    'auth.tooManyRequests': 'Слишком много запросов; повторите через {{seconds}} с',
    'auth.tooManyTestMails': 'Слишком много проверочных писем; повторите через {{seconds}} с',
  },
});
