/**
 * A subcommand of the agent's command line (cli.ts): it returns its exit code and prints its
 * own messages.
 */
export type CliCommand = {
  name: string;
  summary: string;
  run(args: string[]): Promise<number>;
};
