// The chat-model clip scorer against a local stand-in that speaks the documented /v1/chat/completions
// shapes, and the choosing that uses it: the model's scores decide which stretches become clips, and a
// model that fails or answers nonsense leaves the offline scores.
import type { IncomingMessage, ServerResponse } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { OfflineClipScorerLive } from "../../adapters/clips/offline-clip-scorer.ts"
import { CHAT_SHORTLIST, OpenAiClipScorerLive } from "../../adapters/clips/openai-clip-scorer.ts"
import type { SpokenWord } from "../../domain/clip-selection.ts"
import { ClipScorer } from "../../domain/ports/clip-scorer.ts"
import { chooseClips } from "../../src/ops/clips/parts/choose-clips.ts"
import { type StandIn, answerJson, openAiInvalidKey, startStandIn } from "../support/stand-in.ts"
import { WorkspaceKeysLive } from "../support/workspace-keys.ts"

const KEY = "sk-test-key"
const BYOK = "sk-workspace-own"

type Received = { readonly path: string; readonly authorization: string; readonly body: any }
let received: Array<Received> = []
/** What the stand-in's model answers, given the numbered stretches it was sent. */
let reply: (stretches: ReadonlyArray<string>) => unknown = () => ({})

const standIn = (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  const authorization = req.headers.authorization ?? ""
  if (authorization !== `Bearer ${KEY}` && authorization !== `Bearer ${BYOK}`) return answerJson(res, 401, openAiInvalidKey)
  const body = JSON.parse(requestBody.toString("utf8"))
  received.push({ path: req.url ?? "", authorization, body })
  const stretches = String(body.messages[1].content).split("\n\n").map((s: string) => s.replace(/^\d+\. /, ""))
  answerJson(res, 200, {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: body.model,
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(reply(stretches)) } }]
  })
}

let server: StandIn
beforeAll(async () => {
  server = await startStandIn(standIn)
})
afterAll(async () => {
  await server.close()
})

const chatScorer = (apiKey = KEY) =>
  OpenAiClipScorerLive({ baseUrl: server.baseUrl, apiKey: Redacted.make(apiKey), model: "gpt-4o-mini" }).pipe(
    Layer.provide(WorkspaceKeysLive({ "ws-byok": BYOK }))
  )

/** Ten sentences about ten subjects, 0.3 s a word and a pause between: each one is a stretch of its own. */
const SUBJECTS = ["harbour", "market", "piano", "railway", "bees", "sleep", "library", "bread", "lighthouse", "garden"]
const words: Array<SpokenWord> = []
SUBJECTS.forEach((subject, i) => {
  const sentence = `the ${subject} story is told here in plain words for everyone.`.split(" ")
  sentence.forEach((text, k) => words.push({ text, start: i * 5 + k * 0.3, end: i * 5 + k * 0.3 + 0.28 }))
})
const bounds = { count: 2, minSeconds: 3, maxSeconds: 4.5 }

describe("OpenAiClipScorer", () => {
  it.effect("asks the chat model as documented, the offline best first, and answers its scores", () =>
    Effect.gen(function*() {
      received = []
      reply = (stretches) => ({ scores: stretches.map((_, i) => 90 - i) })
      const scores = yield* Effect.flatMap(ClipScorer, (s) =>
        s.score({ workspaceId: "ws-1", candidates: [{ text: "one two", score: 10 }, { text: "three", score: 5 }] }))
      expect(scores).toEqual([90, 89])
      expect(received).toHaveLength(1)
      expect(received[0]).toMatchObject({ path: "/v1/chat/completions", authorization: `Bearer ${KEY}` })
      expect(received[0]!.body).toMatchObject({ model: "gpt-4o-mini", response_format: { type: "json_object" }, temperature: 0 })
      expect(received[0]!.body.messages[0].role).toBe("system")
      expect(received[0]!.body.messages[1]).toEqual({ role: "user", content: "1. one two\n\n2. three" })
    }).pipe(Effect.provide(chatScorer())))

  it.effect("calls with a BYOK workspace's own key", () =>
    Effect.gen(function*() {
      received = []
      reply = (stretches) => ({ scores: stretches.map(() => 50) })
      yield* Effect.flatMap(ClipScorer, (s) => s.score({ workspaceId: "ws-byok", candidates: [{ text: "a", score: 1 }] }))
      expect(received[0]!.authorization).toBe(`Bearer ${BYOK}`)
    }).pipe(Effect.provide(chatScorer())))

  it.effect("fails, saying what it wanted, on a wrong count, a score out of range, or a refused key", () =>
    Effect.gen(function*() {
      const score = Effect.flatMap(ClipScorer, (s) => s.score({ workspaceId: "ws-1", candidates: [{ text: "a", score: 1 }, { text: "b", score: 2 }] }))
      reply = () => ({ scores: [50] })
      expect((yield* Effect.flip(score)).message).toContain("one score 0-100 for each of the 2 stretches")
      reply = () => ({ scores: [50, 150] })
      expect((yield* Effect.flip(score)).message).toContain("one score 0-100")
      const refused = yield* Effect.flip(score.pipe(Effect.provide(chatScorer("sk-wrong"))))
      expect(refused.message).toContain("Incorrect API key provided")
    }).pipe(Effect.provide(chatScorer())))
})

describe("choosing clips with a scorer", () => {
  it.effect("keeps the stretches the chat model rates best, out of the offline shortlist", () =>
    Effect.gen(function*() {
      received = []
      // The model likes bees and bread: the offline scores are all alike.
      reply = (stretches) => ({ scores: stretches.map((s) => (s.includes("bees") ? 95 : s.includes("bread") ? 90 : 10)) })
      const picked = yield* chooseClips(words, bounds, 50, "ws-1")
      expect(picked.map((c) => c.firstLine)).toEqual([
        "the bees story is told here in plain words for everyone.",
        "the bread story is told here in plain words for everyone."
      ])
      expect(picked.map((c) => c.score)).toEqual([95, 90])
      expect(received[0]!.body.messages[1].content.split("\n\n")).toHaveLength(Math.min(CHAT_SHORTLIST, SUBJECTS.length))
    }).pipe(Effect.provide(chatScorer())))

  it.effect("keeps the offline choice when the model's answer is unusable", () =>
    Effect.gen(function*() {
      reply = () => ({ verdict: "great talk" })
      const withModel = yield* chooseClips(words, bounds, 50, "ws-1").pipe(Effect.provide(chatScorer()))
      const offline = yield* chooseClips(words, bounds, 50, "ws-1").pipe(Effect.provide(OfflineClipScorerLive))
      expect(withModel).toEqual(offline)
      expect(offline).toHaveLength(2)
    }))
})
