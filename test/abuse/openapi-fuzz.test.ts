// Property-based fuzzing of every operation the OpenAPI document lists, plus the OAuth endpoints and
// /mcp: generated hostile path parameters, query strings and bodies (wrong types, huge and odd strings,
// deep nesting, unknown fields, wrong content types, broken JSON and forms). Whatever is sent, the
// answer is never a 5xx, every refusal has the JSON error body (naming the field on a 400), and a
// refused request creates nothing and spends no credit. Bounded in count: it runs in about a minute.
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

let app: TestApp
let token: string
let doc: any
const statusClasses: Record<string, number> = {}

beforeAll(async () => {
  // No rate limits: the fuzz sends well over a thousand requests a second, and a 429 would hide what it looks for.
  app = await startApp({ worker: false, rateLimits: { reads: null, writes: null } })
  token = (await app.createWorkspace({ credits: 100_000 })).token
  doc = (await call(app.baseUrl, "/openapi.json")).body
})

afterAll(async () => {
  const total = Object.values(statusClasses).reduce((a, b) => a + b, 0)
  console.log(`openapi fuzz: ${total} requests, by status class ${JSON.stringify(statusClasses)}`)
  await app?.close()
})

/** Strings that have broken parsers elsewhere: control characters, escapes, huge, numeric lookalikes. */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom("", " ", "\u0000", "\n[Events]\nDialogue: x", "{\\pos(0,0)}", "-->", "<b>&amp;", "%ZZ", "0x10", "1e308", "-1",
    "NaN", "null", "../../etc/passwd", "😀".repeat(300), "视频", "\\", "'\"`", "a".repeat(5000)),
  fc.integer().map(String)
)

const nastyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 4 })
  )
})).value

interface Operation {
  readonly method: string
  readonly path: string
  readonly bodyFields: ReadonlyArray<string>
  readonly query: ReadonlyArray<string>
  readonly takesForm: boolean
}

const resolve = (schema: any): any => {
  if (schema?.$ref === undefined) return schema
  const name = String(schema.$ref).split("/").at(-1)!
  return resolve(doc.components?.schemas?.[name])
}

const fieldsOf = (schema: any): Array<string> => {
  const s = resolve(schema)
  if (s === undefined) return []
  const own = Object.keys(s.properties ?? {})
  const alternatives = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(fieldsOf)
  return [...new Set([...own, ...alternatives])]
}

const operations = (): Array<Operation> =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      bodyFields: fieldsOf(op.requestBody?.content?.["application/json"]?.schema),
      query: (op.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => String(p.name)),
      takesForm: op.requestBody?.content?.["multipart/form-data"] !== undefined
    })))

type Body =
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "raw"; readonly text: string; readonly contentType: string | undefined }
  | { readonly kind: "form"; readonly fields: ReadonlyArray<[string, string]> }

const bodyFor = (op: Operation): fc.Arbitrary<Body> =>
  fc.oneof(
    // The operation's own fields, each with a hostile value, sometimes with an unknown one beside them.
    fc.record({
      fields: fc.subarray([...op.bodyFields, "unknownField"]),
      values: fc.array(nastyValue, { minLength: op.bodyFields.length + 1, maxLength: op.bodyFields.length + 1 })
    }).map(({ fields, values }): Body => ({ kind: "json", value: Object.fromEntries(fields.map((f, i) => [f, values[i]])) })),
    nastyValue.map((value): Body => ({ kind: "json", value })),
    fc.record({
      text: fc.oneof(nastyString, fc.constantFrom("{", "[".repeat(3000), `${"[".repeat(5000)}${"]".repeat(5000)}`, "{\"a\":1}garbage", "\uFEFF{}")),
      contentType: fc.constantFrom(undefined, "application/json", "text/plain", "application/x-www-form-urlencoded",
        "multipart/form-data", "multipart/form-data; boundary=", "application/xml", "application/json; charset=utf-16")
    }).map(({ text, contentType }): Body => ({ kind: "raw", text, contentType })),
    fc.array(fc.tuple(fc.constantFrom(...op.bodyFields, "file", "url", "x"), nastyString), { maxLength: 5 })
      .map((fields): Body => ({ kind: "form", fields }))
  )

const pathFor = (op: Operation): fc.Arbitrary<string> =>
  fc.record({
    params: fc.array(fc.oneof(nastyString.filter((s) => s.length > 0), fc.uuid()), { minLength: 4, maxLength: 4 }),
    query: fc.array(fc.tuple(fc.constantFrom(...op.query, "x"), nastyString), { maxLength: 3 })
  }).map(({ params, query }) => {
    let i = 0
    const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++]!))
    const search = new URLSearchParams(query).toString()
    return search === "" ? path : `${path}?${search}`
  })

const send = async (method: string, path: string, body: Body | undefined) => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  let payload: string | FormData | undefined
  if (body?.kind === "json") {
    headers["content-type"] = "application/json"
    payload = JSON.stringify(body.value) ?? "null"
  } else if (body?.kind === "raw") {
    if (body.contentType !== undefined) headers["content-type"] = body.contentType
    payload = body.text
  } else if (body?.kind === "form") {
    const form = new FormData()
    for (const [name, value] of body.fields) form.append(name, value)
    payload = form
  }
  const response = await fetch(`${app.baseUrl}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) })
  const text = await response.text()
  const key = `${String(response.status)[0]}xx`
  statusClasses[key] = (statusClasses[key] ?? 0) + 1
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text }
}

const ledgerState = async () => {
  const workspace = (await call(app.baseUrl, "/v1/workspace", { token })).body
  const videos = (await call(app.baseUrl, "/v1/videos?limit=100", { token })).body.data.length
  const files = (await call(app.baseUrl, "/v1/files?limit=100", { token })).body.data.length
  return JSON.stringify({ credits: workspace.credits, videos, files })
}

const checkAnswer = (answer: { status: number; contentType: string; text: string }, where: string) => {
  expect(answer.status, `${where} → ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500)
  if (answer.status < 400) return
  expect(answer.contentType, `${where} → ${answer.status} ${answer.text.slice(0, 300)}`).toContain("json")
  const body = JSON.parse(answer.text)
  if (where.includes(" /oauth/")) return expect(body.error).toEqual(expect.any(String))
  if (where.includes(" /mcp")) return expect(body.error.message).toEqual(expect.any(String))
  expect(body.error, where).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }))
  if (answer.status === 400) expect(body.error.details?.field, `${where} → ${answer.text.slice(0, 300)}`).toEqual(expect.any(String))
}

const RUNS_PER_OPERATION = 60

describe("every operation of /openapi.json under generated hostile input", () => {
  it("never answers 5xx, always answers refusals in the JSON error shape, and refused input changes nothing", async () => {
    const ops = operations().filter((op) => !op.path.startsWith("/admin/"))
    expect(ops.length).toBeGreaterThan(30)
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(pathFor(op), fc.option(bodyFor(op), { nil: undefined }), async (path, body) => {
          const changes = op.method !== "GET"
          const before = changes ? await ledgerState() : ""
          const answer = await send(op.method, path, op.method === "GET" ? undefined : body)
          checkAnswer(answer, `${op.method} ${path.slice(0, 120)}`)
          if (changes && answer.status >= 400) expect(await ledgerState(), `${op.method} ${path}`).toBe(before)
        }),
        { numRuns: RUNS_PER_OPERATION }
      )
    }
  })

  it("holds for the OAuth endpoints and /mcp too, and the sign-in page never fails", async () => {
    const page = await send("POST", "/oauth/sign-in", { kind: "raw", text: "email=%ZZ&password=", contentType: "application/x-www-form-urlencoded" })
    expect(page.status).toBeLessThan(500)
    await fc.assert(
      fc.asyncProperty(bodyFor({ method: "POST", path: "/oauth/sign-in", bodyFields: ["email", "password", "return_to"], query: [], takesForm: false }), async (body) => {
        // A browser form: its refusals are pages, so only the status is checked.
        expect((await send("POST", "/oauth/sign-in", body)).status).toBeLessThan(500)
      }),
      { numRuns: RUNS_PER_OPERATION }
    )
    const endpoints: Array<Operation> = ["/oauth/token", "/oauth/register", "/oauth/revoke", "/mcp"].map((path) => ({
      method: "POST",
      path,
      bodyFields: ["grant_type", "code", "client_id", "redirect_uris", "jsonrpc", "method", "params", "email", "password"],
      query: [],
      takesForm: false
    }))
    for (const op of endpoints) {
      await fc.assert(
        fc.asyncProperty(bodyFor(op), async (body) => {
          checkAnswer(await send(op.method, op.path, body), `${op.method} ${op.path}`)
        }),
        { numRuns: RUNS_PER_OPERATION * 2 }
      )
    }
  })
})
