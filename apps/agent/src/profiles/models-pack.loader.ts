import { loadDefaultModelsPack } from '@pagewatch/snmp/models-pack';
import { ProfileRegistry } from './profile-registry.ts';

/** The profiles of the bundled models pack. */
export function createDefaultRegistry(): ProfileRegistry {
  return new ProfileRegistry(loadDefaultModelsPack());
}
