import { addMessages } from '../../i18n/messages.ts';

addMessages({
  en: {
    'agent.runOfOther': 'This run belongs to another agent',
    'agent.tokenForeignRanges': 'This agent scans network ranges of locations outside yours: a new token would hand their SNMP secrets to whoever installs it. Ask the administrator of those locations to renew it',
    'agent.tokenSecretsReach': 'This agent reads SNMP secrets or print queue passwords set by a user of {{locations}}: a new token would hand them to whoever installs it. Ask a user of {{locations}} to renew it, or give those secrets again yourself',
    'agent.foreignRanges': 'The results name {{count}} range(s) that are not this agent\'s, or a range twice; nothing was stored',
    'agent.notYourRange': 'not a range of this agent, or named twice',
  },
  ru: {
    'agent.runOfOther': 'Этот запуск принадлежит другому агенту',
    'agent.tokenForeignRanges': 'Этот агент сканирует сетевые диапазоны чужих расположений: новый токен передал бы их секреты SNMP тому, кто его установит. Попросите администратора этих расположений обновить токен',
    'agent.tokenSecretsReach': 'Этот агент читает секреты SNMP или пароли очередей печати, заданные пользователем расположения {{locations}}: новый токен передал бы их тому, кто его установит. Попросите пользователя расположения {{locations}} обновить токен или задайте эти секреты заново сами',
    'agent.foreignRanges': 'В итогах диапазоны не этого агента ({{count}}) или один диапазон дважды; ничего не сохранено',
    'agent.notYourRange': 'не диапазон этого агента или назван дважды',
  },
});
