import { addMessages } from '../i18n/messages.ts';

addMessages({
  en: {
    'apiTokens.sessionOnly': 'This cannot be done with an API token; sign in to the console',
    'apiTokens.readOnly': 'This API token is read-only',
    'agents.tokenRefused': 'This agent is switched off: it was deleted or its token was renewed in the console; run it with the new token',
  },
  ru: {
    'apiTokens.sessionOnly': 'Это нельзя сделать с API-токеном; войдите в консоль',
    'apiTokens.readOnly': 'Этот API-токен только для чтения',
    'agents.tokenRefused': 'Этот агент отключён: его удалили или обновили его токен в консоли; запустите его с новым токеном',
  },
});
