// Runs before any TypeScript is loaded: an older Node would die on the first `.ts` import with
// ERR_UNKNOWN_FILE_EXTENSION, which says nothing about the real cause. Plain CommonJS on purpose,
// so that every Node can run it. `--warn` (npm install) only warns.
'use strict';
const MIN = [22, 18]; // the first 22.x that strips TypeScript types without a flag
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < MIN[0] || (major === MIN[0] && minor < MIN[1])) {
  const line = `Pagewatch needs Node.js ${MIN.join('.')} or newer (24 LTS recommended); this is ${process.version}.`;
  if (process.argv.includes('--warn')) {
    console.warn(`warning: ${line} Installing anyway; nothing will start until Node.js is upgraded.`);
  } else {
    console.error(line);
    process.exit(1);
  }
}
