// Where a form sends the browser next. Only our own pages that need a sign-in qualify, so a crafted
// link cannot turn sign-in into an open redirect (`//evil.example`, `/\evil.example`, `https://...`).
import { CONNECTIONS_PATH } from "./connections-page.ts"

export const AUTHORIZE_PATH = "/oauth/authorize"

const RETURN_PATHS = new Set([AUTHORIZE_PATH, CONNECTIONS_PATH])
/** A project in the web editor: /editor/<token>. */
const EDITOR_PAGE = /^\/editor\/[A-Za-z0-9_-]+$/
const PLACEHOLDER_ORIGIN = "http://placeholder.invalid"

/** `candidate` when it is a same-origin path to a page that needs a sign-in; the connected-apps page otherwise. */
export const safeReturnTo = (candidate: string | undefined): string => {
  if (candidate === undefined || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) {
    return CONNECTIONS_PATH
  }
  if (!URL.canParse(candidate, PLACEHOLDER_ORIGIN)) return CONNECTIONS_PATH
  const url = new URL(candidate, PLACEHOLDER_ORIGIN)
  return url.origin === PLACEHOLDER_ORIGIN && (RETURN_PATHS.has(url.pathname) || EDITOR_PAGE.test(url.pathname)) ? `${url.pathname}${url.search}` : CONNECTIONS_PATH
}
