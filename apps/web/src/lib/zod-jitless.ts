import { z } from 'zod';

// Zod must not compile parsers with new Function under the server's Content-Security-Policy.
// public/zod-config.js sets that before any chunk runs (the schemas may load in a chunk that
// runs before this module); this keeps it so where no index.html is (tests, other entries).
z.config({ jitless: true });
