import { areas, ofLanguage, withShared } from './areas.ts';

/**
 * The texts the console's start speaks, in both languages (a few KB): the sign-in form, the
 * shell, errors and notices. The areas here are those the start's code names; a screen's own
 * areas come with the rest of its reader's language (en.ts, ru.ts), which every lazy screen
 * waits for. An area moved out of this list shows its keys until the rest arrives.
 */
const files = import.meta.glob('./*/{app,demo,errors,general,layout,licenses,login,nav,notify,pages,websocket}.json', { eager: true });

export const START_TEXTS = {
  en: withShared('en', areas(ofLanguage('en', files))),
  ru: withShared('ru', areas(ofLanguage('ru', files))),
};
