import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'agent.runOfOther': 'This run belongs to another agent',
    'agent.tokenForeignRanges': 'This agent scans network ranges of locations outside yours: a new token would hand their SNMP secrets to whoever installs it. Ask the administrator of those locations to renew it',
    'agent.foreignRanges': 'The results name {{count}} range(s) that are not this agent\'s, or a range twice; nothing was stored',
    'agent.notYourRange': 'not a range of this agent, or named twice',
  },
  ru: {
    'agent.runOfOther': 'Этот запуск принадлежит другому агенту',
    'agent.tokenForeignRanges': 'Этот агент сканирует сетевые диапазоны чужих расположений: новый токен передал бы их секреты SNMP тому, кто его установит. Попросите администратора этих расположений обновить токен',
    'agent.foreignRanges': 'В итогах диапазоны не этого агента ({{count}}) или один диапазон дважды; ничего не сохранено',
    'agent.notYourRange': 'не диапазон этого агента или назван дважды',
  },
});
