import { execInPlace, guardStart } from './update/start-guard.ts';
import { AGENT_VERSION } from './version.ts';

// The single-file agent's entry (scripts/build-agent.ts bundles it as CommonJS, which has no
// top-level await). argv is [executable, executable, ...arguments] in a single executable.
// The start guard runs before the agent's other modules are loaded (the dynamic import), so a
// new build that breaks anywhere in them is still counted and rolled back.
const args = process.argv.slice(2);
if (guardStart(args, process.execPath, AGENT_VERSION)) {
  process.stderr.write(`${new Date().toISOString()} ERROR the updated agent stopped at every start before reaching its server: the previous version was put back\n`);
  execInPlace();
} else {
  void import('./cli-main.ts').then(({ main }) => main(args)).then((code) => {
    process.exitCode = code;
  });
}
