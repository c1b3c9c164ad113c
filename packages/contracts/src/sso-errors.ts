// No zod here: the sign-in form is in the console's start, and it names these reasons.

/** Why an OpenID sign-in came back without a session (`/login-form?sso-error=`): the console says it. */
export const SSO_ERRORS = ['unavailable', 'denied', 'invalid', 'noAccess', 'loginTaken', 'disabled', 'expired', 'noPublicUrl'] as const;
export type SsoError = (typeof SSO_ERRORS)[number];
