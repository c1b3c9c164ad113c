#!/usr/bin/env node
import { main } from './cli-main.ts';

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
