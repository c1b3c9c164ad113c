/** The contracts module's public surface (issue 54): contracts, their devices and billing runs. */
export { ContractsService } from './contracts.service.ts';
export { BillingRunsService } from './billing-runs.service.ts';
