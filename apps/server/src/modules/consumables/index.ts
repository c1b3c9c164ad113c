/** The consumables module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { ConsumablesService } from './consumables.service.ts';
export { forecastSupplies } from './consumables.forecast.ts';
