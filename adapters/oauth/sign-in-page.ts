// The sign-in form. It posts to /oauth/sign-in and carries where to go afterwards (the authorize
// request that sent the browser here, or the connected-apps page).
import { type Html, html } from "./html.ts"
import { layout } from "./page-layout.ts"

export interface SignInView {
  readonly csrf: string
  /** A path on this service; checked again when the form comes back. */
  readonly returnTo: string
  /** The app asking for access, when an authorize request led here. */
  readonly clientName?: string
  readonly email?: string
  readonly error?: string
  readonly notice?: string
}

export const signInPage = (view: SignInView): Html =>
  layout(
    "Sign in",
    html`<h1>Sign in</h1>
${
      view.clientName === undefined
        ? html`<p class="muted">Sign in to see the apps connected to your workspaces.</p>`
        : html`<p><strong>${view.clientName}</strong> wants to use one of your Reelwright workspaces. Sign in to choose which.</p>`
    }
${view.notice === undefined ? null : html`<p class="muted" role="status">${view.notice}</p>`}
${view.error === undefined ? null : html`<p class="alert" role="alert">${view.error}</p>`}
<form method="post" action="/oauth/sign-in">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="return_to" value="${view.returnTo}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ""}"${
      view.email === undefined ? html` autofocus` : null
    }>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${
      view.email === undefined ? null : html` autofocus`
    }>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>`
  )
