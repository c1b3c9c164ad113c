/** The root location, seen by the instance's own users (spec section 2). No zod here: the console's start reads it. */
export const DEFAULT_LOCATION_CODE = 'DEFAULT';
