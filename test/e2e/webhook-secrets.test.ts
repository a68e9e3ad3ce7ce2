// Webhook signing secrets over HTTP, MCP and the CLI: a workspace creates (the whole secret answered once),
// lists (by prefix), sets an expiry on and deletes its own secrets; a sixth active one is a 409, another
// workspace's a 404; the operator's admin route still sets the one secret in force.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { runCli } from "../support/cli.ts"
import { call } from "../support/http-client.ts"

let app: TestApp
let client: Client | undefined

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await client?.close()
  await app?.close()
})

describe("webhook secrets", () => {
  it("are created, listed by prefix, given an expiry and deleted over HTTP, within the workspace", async () => {
    const { token } = await app.createWorkspace()
    const stranger = (await app.createWorkspace()).token
    expect((await call(app.baseUrl, "/v1/webhook-secrets", { token })).body).toEqual({ data: [] })

    const created = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: {} })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ expiresAt: null, active: true })
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const expiring = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: { expiresInSeconds: 3600 } })
    expect(Date.parse(expiring.body.expiresAt) - Date.parse(expiring.body.createdAt)).toBe(3_600_000)

    const listed = await call(app.baseUrl, "/v1/webhook-secrets", { token })
    expect(listed.body.data.map((s: any) => [s.id, s.prefix])).toEqual([
      [created.body.id, created.body.secret.slice(0, 10)],
      [expiring.body.id, expiring.body.secret.slice(0, 10)]
    ])
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    expect((await call(app.baseUrl, "/v1/webhook-secrets", { token: stranger })).body).toEqual({ data: [] })

    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, "+00:00")
    const patched = await call(app.baseUrl, `/v1/webhook-secrets/${created.body.id}`, {
      token,
      method: "PATCH",
      json: { expiresAt: inAWeek }
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    expect(patched.body).toMatchObject({ id: created.body.id, expiresAt: new Date(inAWeek).toISOString(), active: true })
    expect(patched.body.secret).toBeUndefined()

    const both = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: { expiresInSeconds: 60, expiresAt: inAWeek } })
    expect(both.status).toBe(400)
    expect(both.body.error.details.field).toBe("expiresAt")
    const notADate = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: { expiresAt: "tomorrow" } })
    expect(notADate.status).toBe(400)
    const tooFar = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: { expiresAt: "2999-01-01T00:00:00Z" } })
    expect(tooFar.status).toBe(400)
    expect(tooFar.body.error.message).toContain("ten years")

    const theirs = await call(app.baseUrl, `/v1/webhook-secrets/${created.body.id}`, { token: stranger, method: "DELETE" })
    expect(theirs.status).toBe(404)
    const deleted = await call(app.baseUrl, `/v1/webhook-secrets/${created.body.id}`, { token, method: "DELETE" })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ id: created.body.id, deleted: true })
    expect((await call(app.baseUrl, `/v1/webhook-secrets/${created.body.id}`, { token, method: "DELETE" })).status).toBe(404)
    expect((await call(app.baseUrl, "/v1/webhook-secrets", { token })).body.data.map((s: any) => s.id)).toEqual([expiring.body.id])
  })

  it("refuses a sixth active secret with a 409 that names the limit", async () => {
    const { token } = await app.createWorkspace()
    for (let i = 0; i < 5; i++) expect((await call(app.baseUrl, "/v1/webhook-secrets", { token, json: {} })).status).toBe(200)
    const sixth = await call(app.baseUrl, "/v1/webhook-secrets", { token, json: {} })
    expect(sixth.status).toBe(409)
    expect(sixth.body.error.message).toContain("5 active webhook secrets")
  })

  it("is the same through MCP and the CLI, and the operator's route still sets the secret in force", async () => {
    const { workspaceId, token } = await app.createWorkspace()
    client = await connectMcp(app.baseUrl, token)
    const made = await client.callTool({ name: "create_webhook_secret", arguments: { expiresInSeconds: 600 } })
    expect(made.isError, textOf(made)).not.toBe(true)
    const secret = JSON.parse(textOf(made))
    expect(secret.secret).toMatch(/^whsec_/)
    const listed = JSON.parse(textOf(await client.callTool({ name: "list_webhook_secrets", arguments: {} })))
    expect(listed.data.map((s: any) => s.prefix)).toEqual([secret.secret.slice(0, 10)])
    const updated = await client.callTool({ name: "update_webhook_secret", arguments: { id: secret.id, expiresAt: null } })
    expect(JSON.parse(textOf(updated)).expiresAt).toBeNull()

    const env = { REELWRIGHT_TOKEN: token }
    const cliMade = await runCli(app.baseUrl, ["webhook-secret:create", "--expiresInSeconds", "120"], env)
    expect(cliMade.code, cliMade.stderr).toBe(0)
    const second = JSON.parse(cliMade.stdout)
    expect(second.secret).toMatch(/^whsec_/)
    const cliListed = JSON.parse((await runCli(app.baseUrl, ["webhook-secret:list"], env)).stdout)
    expect(cliListed.data.map((s: any) => s.id)).toEqual([secret.id, second.id])
    expect(JSON.parse((await runCli(app.baseUrl, ["webhook-secret:delete", "--id", second.id], env)).stdout)).toEqual({
      id: second.id,
      deleted: true
    })
    const removed = await client.callTool({ name: "delete_webhook_secret", arguments: { id: secret.id } })
    expect(JSON.parse(textOf(removed))).toEqual({ id: secret.id, deleted: true })
    const gone = await client.callTool({ name: "delete_webhook_secret", arguments: { id: secret.id } })
    expect(gone.isError).toBe(true)

    // The operator's route: the one secret in force, listed to the workspace by its prefix.
    const set = await call(app.baseUrl, `/admin/workspaces/${workspaceId}/webhook-secret`, { token: ADMIN_TOKEN, json: {} })
    expect(set.status).toBe(200)
    expect(set.body.secret).toMatch(/^whsec_/)
    expect((await call(app.baseUrl, "/v1/webhook-secrets", { token })).body.data.map((s: any) => s.prefix)).toEqual([
      set.body.secret.slice(0, 10)
    ])
  })
})
