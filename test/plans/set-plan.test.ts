// Changing a workspace's plan through /admin and the CLI's plan:set: only with the admin token, the
// workspace then reads its new plan, and the plan's rights apply to the next request (a free
// workspace's render is refused with 403 until it moves to a paid plan).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PLAN_RULES } from "../../domain/plans.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { cliJson } from "../support/cli.ts"
import { call } from "../support/http-client.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const admin = (workspaceId: string, json: unknown) =>
  call(app.baseUrl, `/admin/workspaces/${workspaceId}/plan`, { token: ADMIN_TOKEN, json })

describe("POST /admin/workspaces/:workspaceId/plan", () => {
  it("moves the workspace to the plan and answers what it allows, with the admin token only", async () => {
    const { workspaceId, token } = await app.createWorkspace({ plan: "free", credits: 100 })
    const refused = await call(app.baseUrl, `/admin/workspaces/${workspaceId}/plan`, { token, json: { plan: "business" } })
    expect(refused.status).toBe(401)

    const moved = await admin(workspaceId, { plan: "business" })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    const { fileRetentionDays, maxConcurrentJobs, monthlyCredits } = PLAN_RULES.business
    expect(moved.body).toEqual({ workspaceId, plan: "business", monthlyCredits, fileRetentionDays, maxConcurrentJobs })
    expect((await call(app.baseUrl, "/v1/workspace", { token })).body.plan).toBe("business")

    expect((await admin("no-such-workspace", { plan: "pro" })).status).toBe(404)
    const invalid = await admin(workspaceId, { plan: "platinum" })
    expect([invalid.status, invalid.body.error.code]).toEqual([400, "invalid_input"])
  })

  it("applies the plan's rendering right to the next request", async () => {
    const { workspaceId, token } = await app.createWorkspace({ plan: "free", credits: 100 })
    const create = () =>
      call(app.baseUrl, "/v1/caption-videos", { token, json: { url: "https://media.example.com/a.mp4", render: {} } })
    const forbidden = await create()
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, "plan_forbids"])
    expect((await admin(workspaceId, { plan: "creator" })).status).toBe(200)
    expect((await create()).status).toBe(200)
  })
})

describe("CLI plan:set", () => {
  it("changes the plan with the admin token", async () => {
    const { workspaceId, token } = await app.createWorkspace({ plan: "creator" })
    const moved = await cliJson(app.baseUrl, ["plan:set", "--workspaceId", workspaceId, "--plan", "pro"], { ADMIN_TOKEN })
    expect(moved).toMatchObject({ workspaceId, plan: "pro", maxConcurrentJobs: PLAN_RULES.pro.maxConcurrentJobs })
    expect((await call(app.baseUrl, "/v1/workspace", { token })).body.plan).toBe("pro")
  })
})
