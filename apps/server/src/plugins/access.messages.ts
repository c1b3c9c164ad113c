import { addMessages } from '../i18n/messages.ts';

addMessages({
  en: {
    'apiTokens.sessionOnly': 'This cannot be done with an API token; sign in to the console',
    'apiTokens.readOnly': 'This API token is read-only',
  },
  ru: {
    'apiTokens.sessionOnly': 'Это нельзя сделать с API-токеном; войдите в консоль',
    'apiTokens.readOnly': 'Этот API-токен только для чтения',
  },
});
