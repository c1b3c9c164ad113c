/** The alerts module's public surface: all that other modules, jobs and plugins may use of it (issue 42). */
export { AlertsService } from './alerts.service.ts';
export { openOfflineAlerts, syncAgentAlerts, syncDeviceAlerts } from './alerts.repository.ts';
export { formatDuration } from './alerts.duration.ts';
