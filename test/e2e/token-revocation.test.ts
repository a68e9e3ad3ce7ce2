// Tokens are cached with their workspaces in each API process on PostgreSQL (adapters/postgres/pg-token-cache.ts):
// a revocation or a change of plan made through one process holds at once in another on the same database,
// and on the memory store as well.
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { STORES } from "../support/app-on-store.ts"
import { call } from "../support/http-client.ts"
import { testDatabase } from "../support/pg-test-db.ts"

/** Enough reads, spread over long enough, that the cache has opened its LISTEN and keeps the token. */
const warm = async (baseUrl: string, token: string) => {
  for (let i = 0; i < 10; i++) {
    expect((await call(baseUrl, "/v1/workspace", { token })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Whether `holds` comes true within a second: well before a kept token would expire on its own. */
const soon = async (holds: () => Promise<boolean>): Promise<boolean> => {
  const deadline = Date.now() + 1_000
  while (Date.now() < deadline) {
    if (await holds()) return true
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return false
}

describe.each(STORES)("revocation and plan changes across API processes (%s)", (store) => {
  let first: TestApp
  let second: TestApp
  const scope = Effect.runSync(Scope.make())
  beforeAll(async () => {
    const databaseUrl = store === "postgres" ? await Effect.runPromise(Scope.extend(testDatabase(), scope)) : undefined
    first = await startApp({ worker: false, ...(databaseUrl === undefined ? {} : { databaseUrl }) })
    // The memory store is private to its process: there, both are the same app.
    second = databaseUrl === undefined ? first : await startApp({ worker: false, databaseUrl })
  })
  afterAll(async () => {
    if (second !== first) await second?.close()
    await first?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("refuses a revoked token at once in every process", async () => {
    const { token } = await first.createWorkspace()
    const other = await first.createWorkspace()
    await warm(first.baseUrl, token)
    await warm(second.baseUrl, token)
    await warm(second.baseUrl, other.token)
    const revoked = await call(first.baseUrl, `/admin/tokens/${encodeURIComponent(token)}`, { token: ADMIN_TOKEN, method: "DELETE" })
    expect(revoked.status).toBe(200)
    expect((await call(first.baseUrl, "/v1/workspace", { token })).status).toBe(401)
    // The other process hears of it as its notice arrives, milliseconds after the commit (the cache keeps a
    // token for seconds): a busy machine may answer one more request first.
    expect(await soon(async () => (await call(second.baseUrl, "/v1/workspace", { token })).status === 401)).toBe(true)
    // Other tokens are read again, and still work.
    expect((await call(second.baseUrl, "/v1/workspace", { token: other.token })).status).toBe(200)
  })

  it("answers with a workspace's new plan at once in every process", async () => {
    const { workspaceId, token } = await first.createWorkspace({ plan: "free" })
    await warm(second.baseUrl, token)
    expect((await call(second.baseUrl, "/v1/workspace", { token })).body.plan).toBe("free")
    const changed = await call(first.baseUrl, `/admin/workspaces/${workspaceId}/plan`, { token: ADMIN_TOKEN, json: { plan: "pro" } })
    expect(changed.status).toBe(200)
    expect((await call(first.baseUrl, "/v1/workspace", { token })).body.plan).toBe("pro")
    expect(await soon(async () => (await call(second.baseUrl, "/v1/workspace", { token })).body.plan === "pro")).toBe(true)
  })
})
