import { areas } from './areas.ts';

/** The Russian texts: a chunk of their own, loaded only for a reader of Russian. */
export default areas('ru', import.meta.glob('./ru/*.json', { eager: true }));
