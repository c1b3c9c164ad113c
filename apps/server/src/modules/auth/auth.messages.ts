import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'auth.tooManyRequests': 'Too many requests; try again in {{seconds}} seconds',
    'auth.accountBackoff': 'Too many failed sign-ins with this login; try again in {{seconds}} seconds, or from a browser you have signed in from before',
    'auth.tooManyTestMails': 'Too many test e-mails; try again in {{seconds}} seconds',
  },
  ru: {
    'auth.tooManyRequests': 'Слишком много запросов; повторите через {{seconds}} с',
    'auth.accountBackoff': 'Слишком много неудачных попыток входа под этим именем; повторите через {{seconds}} с или войдите из браузера, в котором уже входили',
    'auth.tooManyTestMails': 'Слишком много проверочных писем; повторите через {{seconds}} с',
  },
});
