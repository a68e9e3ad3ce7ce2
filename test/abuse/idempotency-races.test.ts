// Ten requests at once with one Idempotency-Key, on every operation that takes the header (JSON, and
// multipart for the three upload forms), on both stores: one piece of work, charged at most once; the
// other requests replay its answer, or say that it is still in progress.
import { Effect, Option } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { UploadStore } from "../../domain/ports/upload-store.ts"
import { catalogue } from "../../src/catalogue.ts"
import type { TestApp } from "../support/app.ts"
import { STORES, startAppOn } from "../support/app-on-store.ts"
import { completedVideo } from "../support/completed-video.ts"
import { type Answer, call, serveFiles } from "../support/http-client.ts"

const run = promisify(execFile)
const AT_ONCE = 10
const SOURCE = "https://media.example.com/talk.mp4"
const SCRIPT = "Ten requests arrive at once. Only one of them does the work."
const CONVERSATION = {
  participants: [{ id: "sam", name: "Sam", me: true }, { id: "maya", name: "Maya Lopez" }],
  messages: [{ from: "maya", text: "are you coming tonight?" }, { from: "sam", text: "yes! leaving now" }]
}
const QUIZ = {
  title: "Capitals quiz",
  questions: [{ question: "What is the capital of France?", answers: ["Paris", "Lyon"], correct: 0 }]
}

type Work = (app: TestApp, workspaceId: string) => Promise<number>

const drained = new Map<string, number>()

/**
 * Jobs ever queued for the workspace: each create that runs in the background queues one. The queue is
 * drained (claimed and completed) as it is counted, so the counts add up here.
 */
const jobs: Work = (app, workspaceId) =>
  app.runtime.runPromise(Effect.gen(function*() {
    const queue = yield* JobQueue
    for (;;) {
      const job = yield* queue.claim("media", 60_000, "test-drain")
      if (Option.isNone(job)) return drained.get(workspaceId) ?? 0
      yield* queue.complete(job.value.id)
      const owner = job.value.workspaceId
      if (owner !== null) drained.set(owner, (drained.get(owner) ?? 0) + 1)
    }
  }))

/** Files stored for the workspace (MP3s, pictures). */
const blobs: Work = async (app, workspaceId) => (await readdir(join(app.dataDir, "blobs", workspaceId)).catch(() => [])).length

const uploads: Work = (app, workspaceId) =>
  app.runtime.runPromise(Effect.flatMap(UploadStore, (store) => store.list({ workspaceId, limit: 100, cursor: undefined })))
    .then((page) => page.items.length)

const templates: Work = (app, workspaceId) =>
  app.runtime.runPromise(Effect.flatMap(TemplateStore, (store) => store.list(workspaceId))).then((saved) => saved.length)

const chargesOf = (app: TestApp, workspaceId: string) =>
  app.runtime.runPromise(Effect.flatMap(Ledger, (ledger) => ledger.list(workspaceId)))
    .then((entries) => entries.filter((entry) => entry.amount < 0).length)

interface Case {
  readonly operation: string
  /** Given the id of a completed video of the workspace. */
  readonly path: (videoId: string) => string
  readonly body: () => Promise<{ json: unknown } | { form: FormData }>
  readonly work: Work
  /** Charges at the request; the others are charged by their job, once per piece of work (by its ledger key). */
  readonly charges: 0 | 1
}

let clip = ""
let served: Awaited<ReturnType<typeof serveFiles>>

const json = (body: unknown) => () => Promise.resolve({ json: body })
const upload = async () => {
  const form = new FormData()
  form.append("file", new Blob([await readFile(clip)], { type: "video/mp4" }), "clip.mp4")
  return { form }
}

const CASES: ReadonlyArray<Case> = [
  { operation: "createCaptionVideo", path: () => "/v1/caption-videos", body: json({ url: SOURCE }), work: jobs, charges: 0 },
  { operation: "createCaptionVideo", path: () => "/v1/caption-videos", body: upload, work: jobs, charges: 0 },
  { operation: "createAiVideo", path: () => "/v1/ai-videos", body: json({ script: SCRIPT }), work: jobs, charges: 0 },
  { operation: "createAiVideoV3", path: () => "/v1/ai-videos/v3", body: json({ script: SCRIPT }), work: jobs, charges: 0 },
  {
    operation: "createGameplayVideo",
    path: () => "/v1/gameplay-videos",
    body: json({ script: SCRIPT, footage: "blocks" }),
    work: jobs,
    charges: 0
  },
  {
    operation: "createFakeTextVideo",
    path: () => "/v1/fake-text-videos",
    body: json({ ...CONVERSATION, theme: "imessage-light" }),
    work: jobs,
    charges: 0
  },
  { operation: "createQuizVideo", path: () => "/v1/quiz-videos", body: json(QUIZ), work: jobs, charges: 0 },
  { operation: "renderVideo", path: (id) => `/v1/videos/${id}/render`, body: json({}), work: jobs, charges: 1 },
  { operation: "uploadFile", path: () => "/v1/files", body: () => Promise.resolve({ json: { url: served.url("clip.mp4") } }), work: uploads, charges: 0 },
  { operation: "uploadFile", path: () => "/v1/files", body: upload, work: uploads, charges: 0 },
  { operation: "textToSpeech", path: () => "/v1/text-to-speech", body: json({ script: SCRIPT }), work: blobs, charges: 1 },
  {
    operation: "createFakeTextScreenshot",
    path: () => "/v1/fake-text-screenshots",
    body: json({ ...CONVERSATION, theme: "whatsapp" }),
    work: blobs,
    charges: 1
  },
  { operation: "createCaptionRemoval", path: () => "/v1/caption-remover", body: json({ url: SOURCE }), work: jobs, charges: 1 },
  { operation: "createCaptionRemoval", path: () => "/v1/caption-remover", body: upload, work: jobs, charges: 1 },
  { operation: "createClips", path: () => "/v1/clips", body: json({ url: SOURCE, count: 2 }), work: jobs, charges: 0 },
  { operation: "createClips", path: () => "/v1/clips", body: upload, work: jobs, charges: 0 },
  {
    operation: "createCaptionTemplate",
    path: () => "/v1/caption-templates",
    body: json({ name: "Brand", basedOn: -5, style: { highlightColor: "#112233" } }),
    work: templates,
    charges: 0
  }
]

beforeAll(async () => {
  clip = join(await mkdtemp(join(tmpdir(), "idempotency-races-")), "clip.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30", "-f", "lavfi", "-i", "sine=frequency=440",
    "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", clip
  ])
  served = await serveFiles({ "clip.mp4": { path: clip, contentType: "video/mp4" } })
})

afterAll(async () => {
  await served?.close()
  await rm(dirname(clip), { recursive: true, force: true })
})

it("covers every operation that takes an Idempotency-Key", () => {
  expect(new Set(CASES.map((c) => c.operation))).toEqual(new Set(catalogue.filter((op) => op.idempotent).map((op) => op.name)))
})

const isStillRunning = (answer: Answer) =>
  answer.status === 409 && answer.body?.error?.code === "conflict" && /still in progress/.test(answer.body.error.message)

describe.each(STORES)("ten requests with one Idempotency-Key at once (%s)", (store) => {
  let app: TestApp
  beforeAll(async () => {
    app = await startAppOn(store, { worker: false })
  })
  afterAll(async () => {
    await app?.close()
  })

  it.each(CASES.map((c) => [`${c.operation}${c.body === upload ? " (multipart)" : ""}`, c] as const))(
    "%s: one piece of work, charged as one request is, one answer",
    async (_, { path, body, work, charges }) => {
      const { workspaceId, token } = await app.createWorkspace({ credits: 10_000 })
      const video = await app.runtime.runPromise(completedVideo(workspaceId))
      const before = await work(app, workspaceId)
      const headers = { "idempotency-key": `race-${workspaceId}` }
      const send = async () => call(app.baseUrl, path(video.id), { token, headers, ...(await body()) })
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, send))
      const answered = answers.filter((a) => a.status === 200)
      const refused = answers.filter((a) => a.status !== 200)
      expect(answered.length, JSON.stringify(refused.map((a) => a.body))).toBeGreaterThan(0)
      expect(refused.every(isStillRunning), JSON.stringify(refused.map((a) => a.body))).toBe(true)
      for (const a of answered) expect(a.body).toEqual(answered[0]!.body)
      expect(await work(app, workspaceId)).toBe(before + 1)
      expect(await chargesOf(app, workspaceId)).toBe(charges)

      // Answered: a later retry replays the answer and does nothing more.
      const again = await send()
      expect(again.status).toBe(200)
      expect(again.body).toEqual(answered[0]!.body)
      expect(await work(app, workspaceId)).toBe(before + 1)
      expect(await chargesOf(app, workspaceId)).toBe(charges)
    }
  )
})
