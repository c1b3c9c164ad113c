import { addMessages } from '../../i18n/messages.ts';

// The field errors (meterCorrections.*) and meter names are the contracts' shared messages.
addMessages({
  en: {
    'log.device.meterCorrected': '{{actor}} entered meter correction #{{id}} of {{device}}: {{meter}} {{offset}} pages from {{from}} ({{reason}})',
    'log.device.meterReset': '{{actor}} entered counter reset #{{id}} of {{device}} from {{from}}: {{meters}} meters carried over, the total by {{total}} pages ({{reason}})',
    'log.device.meterCorrectionWithdrawn': '{{actor}} withdrew meter correction #{{id}} of {{device}} ({{meter}} {{offset}} pages from {{from}}): {{reason}}',
  },
  ru: {
    'log.device.meterCorrected': '{{actor}} ввёл поправку счётчика №{{id}} для {{device}}: {{meter}} {{offset}} стр. с {{from}} ({{reason}})',
    'log.device.meterReset': '{{actor}} ввёл сброс счётчиков №{{id}} для {{device}} с {{from}}: перенесено счётчиков: {{meters}}, общий — на {{total}} стр. ({{reason}})',
    'log.device.meterCorrectionWithdrawn': '{{actor}} отозвал поправку счётчика №{{id}} для {{device}} ({{meter}} {{offset}} стр. с {{from}}): {{reason}}',
  },
});
