import { areas } from './areas.ts';

/** The English texts: a chunk of their own, loaded only for a reader of English. */
export default areas('en', import.meta.glob('./en/*.json', { eager: true }));
