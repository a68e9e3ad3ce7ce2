// Who is signed in, and the way out: a POST (with the session's CSRF token), never a link a page
// elsewhere could make the browser follow.
import { type Html, html } from "./html.ts"

export const accountFooter = (email: string, csrf: string, returnTo: string): Html =>
  html`<div class="account"><span class="muted">Signed in as <strong>${email}</strong></span>
<form method="post" action="/account/sign-out"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="return_to" value="${returnTo}"><button class="secondary" type="submit">Sign out</button></form></div>`
