import { areas } from './areas.ts';

/** The Russian texts of the screens (the start's are in start.ts): a chunk loaded only for a reader of Russian. */
export default areas(import.meta.glob(['./ru/*.json', '!./ru/{app,demo,errors,general,layout,licenses,login,nav,notify,pages,websocket}.json'], { eager: true }));
