import { areas } from './areas.ts';

/** The English texts of the screens (the start's are in start.ts): a chunk loaded only for a reader of English. */
export default areas(import.meta.glob(['./en/*.json', '!./en/{app,demo,errors,general,layout,licenses,login,nav,notify,pages,websocket}.json'], { eager: true }));
