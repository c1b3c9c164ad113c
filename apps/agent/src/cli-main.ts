import { scanCommand } from './discovery/scan.command.ts';
import { probeCommand } from './probe/probe.command.ts';
import { runCommand } from './run/run.command.ts';
import { installCommand, statusCommand, uninstallCommand } from './service/service.command.ts';
import type { CliCommand } from './cli-command.ts';
import { AGENT_VERSION } from './version.ts';

const versionCommand: CliCommand = {
  name: 'version',
  summary: "print the agent's version",
  async run() {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return 0;
  },
};

/** The agent's command line. Each subcommand is one entry here. */
const COMMANDS: CliCommand[] = [probeCommand, scanCommand, runCommand, installCommand, uninstallCommand, statusCommand, versionCommand];

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`);
  return `usage: pagewatch-agent <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`pagewatch-agent: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    // Last resort: one line, never a stack trace.
    process.stderr.write(`${name}: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    return 2;
  }
}
