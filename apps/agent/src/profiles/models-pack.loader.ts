import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseModelsPack } from '@pagewatch/contracts/models-pack';
import type { ModelsPack } from '@pagewatch/contracts/models-pack';
import { ProfileRegistry } from './profile-registry.ts';

/** The pack that ships with the agent, used until the server hands out a newer one. */
export const DEFAULT_MODELS_PACK_PATH = fileURLToPath(new URL('../../profiles/models-pack.json', import.meta.url));

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

export function createDefaultRegistry(): ProfileRegistry {
  return new ProfileRegistry(loadDefaultModelsPack());
}
