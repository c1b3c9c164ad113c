// Preloaded by the command-line tools of package.json (`node -r ./tools/cli-failure.cjs`): a
// failure that no tool caught ends with one line on stderr, named by the script, and exit code 1,
// never a stack trace (issue 52). The server (start, dev) keeps Node's own report of a crash.
'use strict';
const { basename } = require('node:path');

const name = process.env.npm_lifecycle_event || basename(process.argv[1] || 'pagewatch').replace(/\.[cm]?[jt]s$/, '');

/** The one line of a failure: the first line of its deepest cause's message, or the value thrown. */
function lineOf(error) {
  while (error instanceof Error && error.cause) error = error.cause;
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0].trim() || 'failed';
}

function fail(error) {
  process.stderr.write(`${name}: ${lineOf(error)}\n`);
  process.exit(1);
}

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
