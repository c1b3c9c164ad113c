import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'agent.runOfOther': 'This run belongs to another agent',
    'agent.foreignRanges': 'The results name {{count}} range(s) that are not this agent\'s, or a range twice; nothing was stored',
    'agent.notYourRange': 'not a range of this agent, or named twice',
  },
  ru: {
    'agent.runOfOther': 'Этот запуск принадлежит другому агенту',
    'agent.foreignRanges': 'В итогах диапазоны не этого агента ({{count}}) или один диапазон дважды; ничего не сохранено',
    'agent.notYourRange': 'не диапазон этого агента или назван дважды',
  },
});
