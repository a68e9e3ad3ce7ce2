// The CLI as a user runs it: a separate process talking to the running service.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { runCli } from "../support/cli.ts"
import { call } from "../support/http-client.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const cli = (args: Array<string>, env: Record<string, string> = {}) => runCli(app.baseUrl, args, env)

describe("reelwright CLI", () => {
  it("creates a workspace, issues and revokes tokens, and sets the webhook signing secret", async () => {
    const created = await cli(
      ["workspace:create", "--name", "Acme", "--ownerEmail", "ops@acme.test", "--plan", "creator", "--credits", "500"],
      { ADMIN_TOKEN }
    )
    expect(created.code).toBe(0)
    const workspace = JSON.parse(created.stdout) as { workspaceId: string; token: string }
    expect(Object.keys(workspace).sort()).toEqual(["token", "workspaceId"])
    expect((await call(app.baseUrl, "/v1/videos", { token: workspace.token })).status).toBe(200)

    const issued = await cli(["token:issue", "--workspaceId", workspace.workspaceId, "--label", "ci"], { ADMIN_TOKEN })
    const second = JSON.parse(issued.stdout) as { tokenId: string; token: string }
    expect((await call(app.baseUrl, "/v1/videos", { token: second.token })).status).toBe(200)

    const revoked = await cli(["token:revoke", "--tokenId", second.tokenId], { ADMIN_TOKEN })
    expect(revoked.code).toBe(0)
    expect((await call(app.baseUrl, "/v1/videos", { token: second.token })).status).toBe(401)
    expect((await call(app.baseUrl, "/v1/videos", { token: workspace.token })).status).toBe(200)

    const secret = await cli(["webhook-secret:set", "--workspaceId", workspace.workspaceId], { ADMIN_TOKEN })
    expect(JSON.parse(secret.stdout).secret).toMatch(/^whsec_/)
  })

  it("refuses admin commands without the admin token, and reports bad input before sending it", async () => {
    const noToken = await cli(["workspace:create", "--name", "x", "--ownerEmail", "x@x.test"], { ADMIN_TOKEN: "rwadmin_wrong" })
    expect(noToken.code).toBe(1)
    expect(noToken.stderr).toContain("unauthenticated")
    const badEmail = await cli(["workspace:create", "--name", "x", "--ownerEmail", "nope"], { ADMIN_TOKEN })
    expect(badEmail.code).toBe(1)
    expect(badEmail.stderr).toContain("ownerEmail")
    const unknown = await cli(["frobnicate"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("workspace:create")
    // A command's --help shows that command's fields and sends nothing (no token needed).
    const help = await cli(["edit-captions", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("--id --words --lineStarts --templateId --adjustments --revision")
    expect(help.stdout).not.toContain("workspace:create")
  })

  it("lists videos with an API token", async () => {
    const { token } = await app.createWorkspace()
    const listed = await cli(["list", "--limit", "5"], { REELWRIGHT_TOKEN: token })
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout)).toEqual({ data: [], nextCursor: null })
  })
})
