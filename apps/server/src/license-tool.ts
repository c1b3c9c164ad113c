import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { licenseRequestSchema } from '@pagewatch/contracts/licenses';
import { generateIssuerKeys, signLicense } from './modules/licenses/license-signature.ts';

/**
 * `npm run license` — for license issuers (and tests):
 *   npm run license -- keys [--out dir]        a key pair: issuer-private.pem (keep it secret)
 *                                               and license-issuer.pem (give it to servers)
 *   npm run license -- sign --key issuer-private.pem --request lic-request.json
 *                           --to 2027-12-31 --devices 100 [--from 2026-01-01] [--out x.lic]
 */
const USAGE = `usage:
  npm run license -- keys [--out <dir>]
  npm run license -- sign --key <private.pem> --request <lic-request.json> --to <YYYY-MM-DD> --devices <n> [--from <YYYY-MM-DD>] [--out <file.lic>]`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    key: { type: 'string' },
    request: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    devices: { type: 'string' },
  },
});

const command = positionals[0];
if (command === 'keys') {
  const dir = resolve(values.out ?? '.');
  const privatePath = join(dir, 'issuer-private.pem');
  const publicPath = join(dir, 'license-issuer.pem');
  if (existsSync(privatePath)) fail(`${privatePath} exists; not overwriting an issuer key`);
  const keys = generateIssuerKeys();
  writeFileSync(privatePath, keys.privateKeyPem, { mode: 0o600 });
  writeFileSync(publicPath, keys.publicKeyPem);
  console.log(`private key: ${privatePath} (keep it secret)\npublic key:  ${publicPath} (PAGEWATCH_LICENSE_KEY of the servers)`);
} else if (command === 'sign') {
  if (!values.key || !values.request || !values.to || !values.devices) fail('sign needs --key, --request, --to and --devices');
  const parsed = licenseRequestSchema.safeParse(JSON.parse(readFileSync(values.request, 'utf8')));
  if (!parsed.success) fail(`${values.request} is not a license request: ${parsed.error.message}`);
  const request = parsed.data;
  const terms = {
    instanceId: request.instanceId,
    companyName: request.companyName,
    dateFrom: values.from ?? new Date().toISOString().slice(0, 10),
    dateTo: values.to,
    deviceCount: Number(values.devices),
    issuedAt: new Date().toISOString(),
  };
  let text: string;
  try {
    text = `${JSON.stringify(signLicense(terms, readFileSync(values.key, 'utf8')), null, 2)}\n`;
  } catch (err) {
    fail(`cannot sign: ${(err as Error).message}`);
  }
  const out = values.out ?? `${request.companyName.replace(/[^\p{L}\p{N}_-]+/gu, '-')}.lic`;
  writeFileSync(out, text);
  console.log(`license for ${request.companyName} (${request.instanceId}), ${terms.dateFrom} to ${terms.dateTo}, ${terms.deviceCount} devices: ${out}`);
} else {
  fail(command ? `unknown command "${command}"` : 'no command');
}
