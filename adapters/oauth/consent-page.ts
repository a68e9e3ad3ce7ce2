// The consent screen: which app (and, for one known by its metadata document, the site that publishes
// that document, which a look-alike name cannot fake), where the answer goes (the redirect host, so a
// look-alike name cannot hide a foreign destination), and exactly one of the user's workspaces to grant.
import { type Html, html } from "./html.ts"
import { layout } from "./page-layout.ts"
import { accountFooter } from "./account-footer.ts"

export interface ConsentView {
  readonly clientName: string
  /** The host of the client_id of a client known by its metadata document; null for one registered here. */
  readonly clientHost: string | null
  readonly redirectHost: string
  /** The answer goes to an app on the user's own machine (a loopback redirect URI). */
  readonly redirectIsLoopback: boolean
  readonly workspaces: ReadonlyArray<{ readonly id: string; readonly name: string; readonly role: string }>
  /** The authorize request's parameters, sent back with the answer and checked again. */
  readonly request: Readonly<Record<string, string>>
  readonly csrf: string
  readonly email: string
  /** Where "sign out" comes back to: this same authorize request. */
  readonly returnTo: string
  readonly error?: string
}

const workspaceChoices = (view: ConsentView): Html =>
  view.workspaces.length === 0
    ? html`<p class="alert" role="alert">Your account is not a member of any workspace yet, so there is nothing to grant.
Ask a workspace owner to add you (<code>reelwright member:add</code>), then start again from the app.</p>`
    : html`<fieldset><legend>Workspace</legend>
${
      view.workspaces.map((w) =>
        html`<label class="choice"><input type="radio" name="workspace" value="${w.id}" required${
          view.workspaces.length === 1 ? html` checked` : null
        }><span>${w.name} <span class="muted">· ${w.role}</span></span></label>`
      )
    }
</fieldset>`

export const consentPage = (view: ConsentView): Html =>
  layout(
    "Connect an app",
    html`<h1>Allow <strong id="client-name">${view.clientName}</strong> to use a workspace?</h1>
${
      view.clientHost === null
        ? null
        : html`<p class="muted">The app describes itself in a document published by <strong id="client-host">${view.clientHost}</strong>.</p>`
    }
<p>It will call Reelwright's tools in the workspace you pick: read and create videos, and spend that workspace's credits.
It can do so until you disconnect it.</p>
<p class="muted">After you answer, your browser goes to <strong id="redirect-host">${view.redirectHost}</strong>${
      view.redirectIsLoopback ? " (an app on this computer)" : ""
    }. Only continue if you started this from that app.</p>
${view.error === undefined ? null : html`<p class="alert" role="alert">${view.error}</p>`}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="csrf" value="${view.csrf}">
${Object.entries(view.request).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${workspaceChoices(view)}
<div class="actions">
<button class="primary" type="submit" name="decision" value="approve"${view.workspaces.length === 0 ? html` disabled` : null}>Allow</button>
<button class="secondary" type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
${accountFooter(view.email, view.csrf, view.returnTo)}`
  )
