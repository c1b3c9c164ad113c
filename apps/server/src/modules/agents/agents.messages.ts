import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'agent.runOfOther': 'This run belongs to another agent',
  },
  ru: {
    'agent.runOfOther': 'Этот запуск принадлежит другому агенту',
  },
});
