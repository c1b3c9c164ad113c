/** Where the app lands after sign-in when there is no (usable) redirect. */
export const HOME_PATH = '/home';
export const LOGIN_PATH = '/login-form';

/**
 * The `redirect` query value if it is a path on this site, else home. Anything that would
 * leave the origin (`//evil`, `/\evil`, `https://…`) or loop back to the login form is refused.
 */
export function safeRedirect(raw: string | null | undefined, origin: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return HOME_PATH;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== origin || url.pathname === LOGIN_PATH) return HOME_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/login-form?redirect=<path with query>`; plain `/login-form` for home. */
export function loginPathFor(path: string): string {
  if (!path || path === '/' || path === HOME_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: path })}`;
}
