import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseModelsPack, type ModelsPack } from '@pagewatch/contracts/models-pack';

/**
 * The models pack that ships with Pagewatch (vendor profiles: identity, counters, supplies), read
 * by the agent until the server hands out a newer one, by the simulator for its vendors, and by
 * the server as its first pack.
 */
export const DEFAULT_MODELS_PACK_PATH = fileURLToPath(new URL('../models-pack.json', import.meta.url));

/** Loads and checks a pack file; throws with every problem listed when it is invalid. */
export function loadModelsPackFile(path: string): ModelsPack {
  const result = parseModelsPack(readFileSync(path, 'utf8'));
  if (!result.ok) throw new Error(`invalid models pack ${path}:\n  ${result.problems.join('\n  ')}`);
  return result.pack;
}

let cached: ModelsPack | null = null;

export function loadDefaultModelsPack(): ModelsPack {
  cached ??= loadModelsPackFile(DEFAULT_MODELS_PACK_PATH);
  return cached;
}
