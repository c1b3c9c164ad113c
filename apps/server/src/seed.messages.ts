import { addMessages } from './i18n/messages.ts';

// What a new installation names in the server's language (PAGEWATCH_LANGUAGE); renamed at will.
addMessages({
  en: { 'seed.defaultLocation': 'Default', 'seed.adminName': 'Administrator', 'seed.builtinAgent': 'Built-in agent', 'seed.builtinAgentDescription': 'Runs inside the server for the local network' },
  ru: { 'seed.defaultLocation': 'По умолчанию', 'seed.adminName': 'Администратор', 'seed.builtinAgent': 'Встроенный агент', 'seed.builtinAgentDescription': 'Работает внутри сервера, для локальной сети' },
});
