/** The settings module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { SettingsService } from './settings.service.ts';
export { settingValues, smtpSettings } from './settings.repository.ts';
