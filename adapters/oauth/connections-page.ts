// The connected-apps page: every app the user let into one of their workspaces, and a way to cut it off.
import type { GrantView } from "../../domain/ports/oauth-store.ts"
import { accountFooter } from "./account-footer.ts"
import { type Html, html } from "./html.ts"
import { layout } from "./page-layout.ts"

export const CONNECTIONS_PATH = "/account/connections"

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })

const grantItem = (view: GrantView, csrf: string): Html =>
  html`<li data-grant="${view.grant.id}"><div><strong>${view.client.name}</strong>
<span class="muted">Workspace ${view.workspace.name} · since <time datetime="${view.grant.createdAt}">${
    when.format(new Date(view.grant.createdAt))
  } UTC</time></span></div>
<form method="post" action="${CONNECTIONS_PATH}/revoke"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="grant" value="${view.grant.id}">
<button class="danger" type="submit" aria-label="Disconnect ${view.client.name} from ${view.workspace.name}">Disconnect</button></form></li>`

export const connectionsPage = (options: {
  readonly email: string
  readonly grants: ReadonlyArray<GrantView>
  readonly csrf: string
  readonly notice?: string
}): Html =>
  layout(
    "Connected apps",
    html`<h1>Connected apps</h1>
<p class="muted">Apps you allowed to use a workspace through MCP. Disconnecting one stops its access at once;
it would have to ask you again.</p>
${options.notice === undefined ? null : html`<p role="status">${options.notice}</p>`}
${
      options.grants.length === 0
        ? html`<p id="no-grants">No app is connected.</p>`
        : html`<ul class="grants">${options.grants.map((g) => grantItem(g, options.csrf))}</ul>`
    }
${accountFooter(options.email, options.csrf, CONNECTIONS_PATH)}`
  )
