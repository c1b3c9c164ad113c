import { readFileSync } from 'node:fs';

const rootPackage = JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { version?: string };

/** This build's version (the footer, the product page and license requests). */
export const VERSION = {
  appVersion: process.env.PAGEWATCH_VERSION ?? rootPackage.version ?? '0.0.0',
  buildNumber: process.env.PAGEWATCH_BUILD_NUMBER ?? '1',
  releaseDate: process.env.PAGEWATCH_RELEASE_DATE ?? '2026-11-22',
};
