// BYOK over HTTP and MCP: provider keys stored encrypted and shown masked, the operator's switch, renders
// charged from the cash balance (never credits) at any frame rate, 402 on short cash with nothing started,
// refunds of failed and cancelled exports exactly once, and a hosted provider called with the workspace's key.
import { execFile } from "node:child_process"
import { openAsBlob } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { ProviderKeyStore } from "../../domain/ports/provider-key-store.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { byokRenderMicrodollars } from "../../domain/pricing.ts"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { aVideo } from "../contract/fixtures.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { type Answer, call, waitForVideo } from "../support/http-client.ts"
import { answerJson, type StandIn, startStandIn } from "../support/stand-in.ts"

const run = promisify(execFile)
const SERVER_KEY = "sk-server-key-0000"
/** A 12.3 s video: 13 started seconds at 10 cents a minute is 2.17 cents, so 3 cents, 30,000 micro-dollars. */
const SECONDS = 12.3
const PRICE = 30_000

let dir: string
let standIn: StandIn
/** The Authorization header of every speech request the OpenAI stand-in answered. */
let speechAuthorizations: Array<string> = []
let app: TestApp
/** No worker: exports stay queued, so charges, refusals and cancels are seen before any job runs. */
let queued: TestApp
let clip: SpokenClip
const savedEnv = { key: process.env.OPENAI_API_KEY, baseUrl: process.env.OPENAI_BASE_URL }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "byok-e2e-"))
  const wavPath = join(dir, "speech.wav")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=1.5", "-ar", "24000", "-ac", "1", "-c:a", "pcm_s16le", wavPath])
  const wav = await readFile(wavPath)
  standIn = await startStandIn((req, _body, res) => {
    if (req.method !== "POST" || req.url !== "/v1/audio/speech") return answerJson(res, 404, { error: { message: "no such route" } })
    speechAuthorizations.push(req.headers.authorization ?? "")
    res.writeHead(200, { "content-type": "audio/wav" })
    res.end(wav)
  })
  // The server's own OpenAI key and where OpenAI is: read when the apps start.
  process.env.OPENAI_API_KEY = SERVER_KEY
  process.env.OPENAI_BASE_URL = standIn.baseUrl
  app = await startApp()
  queued = await startApp({ worker: false })
  clip = await makeSpokenClip({
    text: "Bring your own key. Pay for the render in cash.",
    width: 360,
    height: 640,
    fps: 30,
    silenceBefore: 0.3,
    silenceAfter: 0.5,
    dir
  })
})

afterAll(async () => {
  await app?.close()
  await queued?.close()
  await standIn?.close()
  for (const [name, value] of [["OPENAI_API_KEY", savedEnv.key], ["OPENAI_BASE_URL", savedEnv.baseUrl]] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  await rm(dir, { recursive: true, force: true })
})

const ok = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body
}

const storeKey = (target: TestApp, token: string, provider: string, apiKey: unknown) =>
  call(target.baseUrl, `/v1/workspace/provider-keys/${provider}`, { method: "PUT", token, json: { apiKey } })

const switchByok = (target: TestApp, workspaceId: string, enabled: boolean, token = ADMIN_TOKEN) =>
  call(target.baseUrl, `/admin/workspaces/${workspaceId}/byok`, { token, json: { enabled } })

/** A free-plan workspace with an OpenAI key of its own, BYOK on, and `cents` of cash. */
const byokWorkspace = async (target: TestApp, cents: number) => {
  const workspace = await target.createWorkspace({ plan: "free", credits: 100 })
  ok(await storeKey(target, workspace.token, "openai", `sk-own-${workspace.workspaceId}`))
  ok(await switchByok(target, workspace.workspaceId, true))
  if (cents > 0) {
    ok(await call(target.baseUrl, `/admin/workspaces/${workspace.workspaceId}/top-ups`, { token: ADMIN_TOKEN, json: { cents } }))
  }
  return workspace
}

/** Balances and logs, as the workspace reads them. */
const account = async (target: TestApp, token: string) => {
  const workspace = ok(await call(target.baseUrl, "/v1/workspace", { token }))
  return {
    credits: workspace.credits as number,
    cash: workspace.cash.balance as number,
    cashLog: ok(await call(target.baseUrl, "/v1/balance-logs?limit=100", { token })).data as Array<any>,
    creditLog: ok(await call(target.baseUrl, "/v1/credit-logs?limit=100", { token })).data as Array<any>
  }
}

/** A caption video whose captions are timed, ready to render. */
const finishedVideo = (target: TestApp, workspaceId: string) =>
  target.runtime.runPromise(Effect.gen(function*() {
    const video = aVideo(workspaceId, {
      status: "completed",
      step: "completed",
      generated: true,
      durationSeconds: SECONDS,
      width: 360,
      height: 640
    })
    yield* (yield* VideoStore).insert(video)
    return video.id
  }))

const render = (target: TestApp, token: string, id: string, json: unknown = {}) =>
  call(target.baseUrl, `/v1/videos/${id}/render`, { token, json })

describe("provider keys", () => {
  it("are stored encrypted, shown by their last four characters only, replaced, deleted, per workspace", async () => {
    const { token, workspaceId } = await queued.createWorkspace()
    const apiKey = "sk-proj-Qm9vZ2llIHdvb2dpZSBrZXkgZm9yIHRlc3Rz-WXYZ"
    const stored = ok(await storeKey(queued, token, "openai", apiKey))
    expect(stored).toEqual({ provider: "openai", last4: "WXYZ", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) })
    const elevenLabs = ok(await storeKey(queued, token, "elevenlabs", "xi-0123456789abcdef"))
    expect(ok(await call(queued.baseUrl, "/v1/workspace/provider-keys", { token }))).toEqual({ data: [elevenLabs, stored] })
    const replaced = ok(await storeKey(queued, token, "openai", "sk-proj-another-key-1234"))
    expect(replaced.last4).toBe("1234")
    const listed = await call(queued.baseUrl, "/v1/workspace/provider-keys", { token })
    expect(listed.body).toEqual({ data: [elevenLabs, replaced] })
    expect(JSON.stringify(listed.body)).not.toContain("sk-proj")
    // At rest only the sealed key: neither key appears in what the store holds.
    const rows = JSON.stringify(await queued.runtime.runPromise(Effect.flatMap(ProviderKeyStore, (s) => s.list(workspaceId))))
    for (const secret of [apiKey, "sk-proj-another-key-1234", "xi-0123456789abcdef"]) expect(rows).not.toContain(secret)

    const other = await queued.createWorkspace()
    expect(ok(await call(queued.baseUrl, "/v1/workspace/provider-keys", { token: other.token }))).toEqual({ data: [] })
    expect((await call(queued.baseUrl, "/v1/workspace/provider-keys/openai", { method: "DELETE", token: other.token })).status).toBe(404)

    expect(ok(await call(queued.baseUrl, "/v1/workspace/provider-keys/elevenlabs", { method: "DELETE", token })))
      .toEqual({ provider: "elevenlabs", deleted: true })
    expect((await call(queued.baseUrl, "/v1/workspace/provider-keys/elevenlabs", { method: "DELETE", token })).status).toBe(404)
    expect(ok(await call(queued.baseUrl, "/v1/workspace/provider-keys", { token }))).toEqual({ data: [replaced] })

    expect((await storeKey(queued, token, "stripe", "sk-live-0123456789")).status).toBe(400)
    const spaced = await storeKey(queued, token, "openai", "sk with spaces")
    expect(spaced.status).toBe(400)
    expect(JSON.stringify(spaced.body)).not.toContain("sk with spaces")
    expect((await storeKey(queued, token, "openai", 42)).status).toBe(400)
  })
})

describe("the BYOK switch", () => {
  it("is the operator's, needs a stored key to go on, and goes off at will", async () => {
    const { token, workspaceId } = await queued.createWorkspace({ plan: "free" })
    expect((await switchByok(queued, workspaceId, true, token)).status).toBe(401)
    const refused = await switchByok(queued, workspaceId, true)
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain("at least one stored provider key")
    expect((await switchByok(queued, "no-such-workspace", true)).status).toBe(404)

    ok(await storeKey(queued, token, "elevenlabs", "xi-0123456789abcdef"))
    expect(ok(await switchByok(queued, workspaceId, true))).toEqual({ workspaceId, byok: true, providers: ["elevenlabs"] })
    expect(ok(await call(queued.baseUrl, "/v1/workspace", { token })).byok).toBe(true)
    expect(ok(await switchByok(queued, workspaceId, false))).toEqual({ workspaceId, byok: false, providers: ["elevenlabs"] })
    expect(ok(await call(queued.baseUrl, "/v1/workspace", { token })).byok).toBe(false)

    // The CLI's verb, with the admin token.
    const { stdout } = await run("node", ["--import", "tsx", "src/cli.ts", "byok:set", "--workspaceId", workspaceId, "--enabled", "true"], {
      env: { ...process.env, REELWRIGHT_URL: queued.baseUrl, ADMIN_TOKEN }
    })
    expect(JSON.parse(stdout)).toEqual({ workspaceId, byok: true, providers: ["elevenlabs"] })
    expect(ok(await call(queued.baseUrl, "/v1/workspace", { token })).byok).toBe(true)
  })
})

describe("BYOK renders", () => {
  it("are charged from the cash balance, not credits, the same at 30 and 60 fps, on a free plan", async () => {
    expect(byokRenderMicrodollars(SECONDS)).toBe(PRICE)
    const { token, workspaceId } = await byokWorkspace(queued, 100)
    const [at30, at60] = [await finishedVideo(queued, workspaceId), await finishedVideo(queued, workspaceId)]
    const before = await account(queued, token)
    expect(ok(await render(queued, token, at30)).export).toMatchObject({ status: "rendering", frameRate: 30 })
    expect(ok(await render(queued, token, at60, { frameRate: 60 })).export).toMatchObject({ status: "rendering", frameRate: 60 })
    const after = await account(queued, token)
    expect(after.credits).toBe(before.credits)
    expect(after.creditLog).toEqual(before.creditLog)
    expect(after.cash).toBe(before.cash - 2 * PRICE)
    expect(after.cashLog.slice(0, 2)).toMatchObject([
      { kind: "render_charge", amount: -PRICE, videoId: at60, balanceAfter: 1_000_000 - 2 * PRICE },
      { kind: "render_charge", amount: -PRICE, videoId: at30, balanceAfter: 1_000_000 - PRICE }
    ])
  })

  it("answer 402 when the cash balance is short, and start and charge nothing", async () => {
    const { token, workspaceId } = await byokWorkspace(queued, 2)
    const id = await finishedVideo(queued, workspaceId)
    const before = await account(queued, token)
    const refused = await render(queued, token, id)
    expect(refused.status).toBe(402)
    expect(refused.body.error).toMatchObject({
      code: "insufficient_cash",
      details: { required: PRICE, balance: 20_000, unit: "microdollars" }
    })
    const video = ok(await call(queued.baseUrl, `/v1/videos/${id}`, { token }))
    expect(video.status).toBe("completed")
    expect(video.export).toBeUndefined()
    expect(await account(queued, token)).toEqual(before)
  })

  it("start exactly as many of 10 parallel requests as the cash covers", async () => {
    const { token, workspaceId } = await byokWorkspace(queued, 4 * 3)
    const ids = await Promise.all(Array.from({ length: 10 }, () => finishedVideo(queued, workspaceId)))
    const answers = await Promise.all(ids.map((id) => render(queued, token, id)))
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(4).fill(200), ...Array(6).fill(402)])
    const after = await account(queued, token)
    expect(after.cash).toBe(0)
    expect(after.cashLog.filter((e) => e.kind === "render_charge").map((e) => e.videoId).sort())
      .toEqual(ids.filter((_, i) => answers[i]!.status === 200).sort())
  })

  it("are refunded once when cancelled", async () => {
    const { token, workspaceId } = await byokWorkspace(queued, 100)
    const id = await finishedVideo(queued, workspaceId)
    ok(await render(queued, token, id))
    expect((await account(queued, token)).cash).toBe(1_000_000 - PRICE)
    const cancelled = ok(await call(queued.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} }))
    expect(cancelled.error).toMatch(/^cancelled/)
    expect((await call(queued.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} })).status).toBe(409)
    const after = await account(queued, token)
    expect(after.cash).toBe(1_000_000)
    expect(after.cashLog.map((e) => [e.kind, e.amount, e.videoId])).toEqual([
      ["render_refund", PRICE, id],
      ["render_charge", -PRICE, id],
      ["top_up", 1_000_000, null]
    ])
  })

  it("over MCP: render_video is an error when the cash balance is short, and charges nothing", async () => {
    const { token, workspaceId } = await byokWorkspace(queued, 2)
    const id = await finishedVideo(queued, workspaceId)
    const before = await account(queued, token)
    const client = await connectMcp(queued.baseUrl, token)
    try {
      const result = await client.callTool({ name: "render_video", arguments: { id } })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toContain(`needs ${PRICE} micro-dollars of cash`)
      expect(textOf(result)).toContain("cash balance")
    } finally {
      await client.close()
    }
    expect(await account(queued, token)).toEqual(before)
    expect(ok(await call(queued.baseUrl, `/v1/videos/${id}`, { token })).export).toBeUndefined()
  })

  it("of a create with `render` are paid in cash when the job runs; a failed export's charge is refunded once", async () => {
    const { token } = await byokWorkspace(app, 100)
    const form = new FormData()
    form.set("file", await openAsBlob(clip.path), "clip.mp4")
    form.set("render", "{}")
    const created = ok(await call(app.baseUrl, "/v1/caption-videos", { token, form }))
    const done = await waitForVideo(app.baseUrl, token, created.id)
    expect(done.status).toBe("completed")
    expect(done.videoUrl).toBeDefined()
    const stored = await app.runtime.runPromise(Effect.map(Effect.flatMap(VideoStore, (v) => v.getById(created.id)), Option.getOrThrow))
    const price = byokRenderMicrodollars(stored.durationSeconds!)
    const rendered = await account(app, token)
    expect(rendered.cash).toBe(1_000_000 - price)
    expect(rendered.cashLog[0]).toMatchObject({ kind: "render_charge", amount: -price, videoId: created.id })
    expect(rendered.creditLog.map((e) => e.operation)).not.toContain("render")

    // Break the stored source so the encoder fails for real.
    await app.runtime.runPromise(Effect.gen(function*() {
      const file = Option.getOrThrow(yield* (yield* FileStore).get(stored.sourceFileId!))
      const broken = join(dir, "broken.mp4")
      yield* Effect.promise(() => writeFile(broken, "garbage".repeat(1000)))
      yield* (yield* BlobStore).putFile(file.blobKey, broken)
    }))
    ok(await render(app, token, created.id, { frameRate: 60 }))
    const failed = await waitForVideo(app.baseUrl, token, created.id)
    expect(failed.export.status).toBe("failed")
    const after = await account(app, token)
    expect(after.cash).toBe(rendered.cash)
    expect(after.credits).toBe(rendered.credits)
    expect(after.cashLog.slice(0, 2).map((e) => [e.kind, e.amount])).toEqual([["render_refund", price], ["render_charge", -price]])
    expect(after.cashLog.filter((e) => e.kind === "render_refund")).toHaveLength(1)
  })
})

describe("hosted providers", () => {
  it("speak for a BYOK workspace with its own OpenAI key, and with the server's key otherwise", async () => {
    const speak = async (token: string) => {
      speechAuthorizations = []
      const spoken = ok(await call(queued.baseUrl, "/v1/text-to-speech", { token, json: { script: "Hello there, friend.", voiceId: "openai-alloy" } }))
      expect(spoken.voiceId).toBe("openai-alloy")
      return speechAuthorizations
    }
    const byok = await byokWorkspace(queued, 0)
    expect(await speak(byok.token)).toEqual([`Bearer sk-own-${byok.workspaceId}`])

    // A stored key with BYOK off, and no key at all: the server's key.
    ok(await switchByok(queued, byok.workspaceId, false))
    expect(await speak(byok.token)).toEqual([`Bearer ${SERVER_KEY}`])
    const plain = await queued.createWorkspace()
    expect(await speak(plain.token)).toEqual([`Bearer ${SERVER_KEY}`])
  })
})
