import { lookup } from 'node:dns/promises';
import { isIpv4 } from '@pagewatch/contracts/network-ranges';

/**
 * The IPv4 address of a printer's host name as the agent's system resolves it (hosts file,
 * DNS, mDNS where the system has it), or null when it has none within the time: the agent
 * is in the printers' network, the server may not be.
 */
export async function resolveIpv4(host: string, timeoutMs = 2000): Promise<string | null> {
  if (isIpv4(host)) return host;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([lookup(host, { family: 4 }).then((a) => a.address, () => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
