import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'apiTokens.tooMany': 'You hold {{max}} API tokens already; revoke one first',
    'apiTokens.daysRange': 'from 1 to 366 days',
  },
  ru: {
    'apiTokens.tooMany': 'У вас уже {{max}} API-токенов; сначала отзовите один из них',
    'apiTokens.daysRange': 'от 1 до 366 дней',
  },
});
