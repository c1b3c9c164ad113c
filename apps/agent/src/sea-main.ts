import { main } from './cli-main.ts';

// The single-file agent's entry (scripts/build-agent.ts bundles it as CommonJS, which has no
// top-level await). argv is [executable, executable, ...arguments] in a single executable.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
