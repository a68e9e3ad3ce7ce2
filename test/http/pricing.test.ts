// One price list for the whole catalogue: every operation has its row (an operation added without one
// fails here), no row names an operation that does not exist, and GET /v1/pricing serves the list.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PRICE_LIST } from "../../domain/price-list.ts"
import { catalogue } from "../../src/catalogue.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

const operations = catalogue as ReadonlyArray<AnyOperation>
const names = operations.map((op) => op.name)

describe("the price list and the catalogue", () => {
  it("has a row for every operation of the catalogue", () => {
    expect(names.filter((name) => PRICE_LIST[name] === undefined)).toEqual([])
  })

  it("names no operation that the catalogue lacks", () => {
    expect(Object.keys(PRICE_LIST).filter((name) => !names.includes(name))).toEqual([])
  })

  it("prices reads and admin operations at 0, admin ones as admin", () => {
    for (const op of operations.filter((o) => o.http.method === "GET" || o.access === "admin")) {
      const prices = PRICE_LIST[op.name] ?? []
      expect(prices.map((p) => p.amount), op.name).toEqual([0])
      if (op.access === "admin") expect(prices[0]?.rule, op.name).toMatch(/^admin, free/)
    }
  })

  it("is served at GET /v1/pricing, which is no MCP tool", () => {
    const getPricing = operations.find((op) => op.http.path === "/v1/pricing")
    expect(getPricing).toMatchObject({ http: { method: "GET" }, access: "workspace", tool: null })
  })
})

describe("GET /v1/pricing", () => {
  let app: TestApp
  let token: string

  beforeAll(async () => {
    app = await startApp({ worker: false })
    token = (await app.createWorkspace({ plan: "free", credits: 0 })).token
  })

  afterAll(async () => {
    await app?.close()
  })

  it("answers the whole list, the same for any workspace", async () => {
    const answer = await call(app.baseUrl, "/v1/pricing", { token })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      data: Object.entries(PRICE_LIST).map(([operation, prices]) => ({ operation, prices }))
    })
    const render = answer.body.data.find((d: any) => d.operation === "renderVideo")
    expect(render.prices.map((p: any) => [p.item, p.amount, p.currency, p.per])).toEqual([
      ["render at 30 fps", 30, "credits", "minute of output"],
      ["render at 60 fps", 60, "credits", "minute of output"],
      ["render (BYOK)", 10, "cents", "minute of output"],
      // Faces asked after the video was made are looked for by its render, charged with its request.
      ["reframing", 2, "credits", "minute of source"]
    ])
    const upload = answer.body.data.find((d: any) => d.operation === "uploadFile")
    expect(upload.prices).toEqual([{ item: "request", amount: 0, currency: "credits", per: "request", counted: "per request", rule: "free" }])
  })

  it("needs an API token, like every /v1 route", async () => {
    const answer = await call(app.baseUrl, "/v1/pricing")
    expect(answer.status).toBe(401)
    expect(answer.body.error.code).toBe("unauthenticated")
  })
})
