// The clip scorer on an OpenAI-compatible chat model (POST /v1/chat/completions with a JSON answer):
// it reads the offline scorer's best stretches and rates each as a short of its own. A BYOK workspace's
// own OpenAI key replaces the server's for its clips.
import { Effect, Layer, Redacted, Schema } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { ClipScorer } from "../../domain/ports/clip-scorer.ts"
import { ProviderKeys } from "../../domain/ports/provider-keys.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"
import { openAiErrorMessage } from "../hosted/openai-error-message.ts"
import { requestProvider } from "../hosted/provider-request.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface OpenAiClipScorerConfig {
  /** e.g. https://api.openai.com; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** e.g. gpt-4o-mini. */
  readonly model: string
}

/** The offline scorer's best this many are sent: up to 20 stretches of at most 5 minutes fit any current model's context. */
export const CHAT_SHORTLIST = 20

const INSTRUCTIONS =
  "You choose clips of a long talk to post as short vertical videos. Rate each numbered stretch of the transcript from 0 to 100 " +
  "for how well it works on its own as a short: a strong first line, a complete thought with no reference to what came before, " +
  "a question answered, concrete numbers or a surprising fact, feeling. " +
  'Answer only JSON: {"scores": [one integer per stretch, in the order given]}.'

const ChatAnswer = Schema.parseJson(Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.String }) }))
}))
const Scores = Schema.parseJson(Schema.Struct({ scores: Schema.Array(Schema.Number.pipe(Schema.between(0, 100))) }))

export const OpenAiClipScorerLive = (config: OpenAiClipScorerConfig) =>
  Layer.effect(
    ClipScorer,
    Effect.map(ProviderKeys, (keys) =>
      ClipScorer.of({
        name: config.model,
        shortlist: CHAT_SHORTLIST,
        score: ({ workspaceId, candidates }) =>
          Effect.gen(function*() {
            const apiKey = yield* apiKeyFor(keys, "openai", workspaceId, config.apiKey)
            const body = yield* requestProvider({
              provider: "The chat model",
              baseUrl: config.baseUrl,
              path: "/v1/chat/completions",
              action: "score the clips",
              init: {
                method: "POST",
                headers: { authorization: `Bearer ${Redacted.value(apiKey)}`, "content-type": "application/json" },
                body: JSON.stringify({
                  model: config.model,
                  response_format: { type: "json_object" },
                  temperature: 0,
                  messages: [
                    { role: "system", content: INSTRUCTIONS },
                    { role: "user", content: candidates.map((c, i) => `${i + 1}. ${c.text}`).join("\n\n") }
                  ]
                })
              },
              errorMessage: openAiErrorMessage
            })
            const unreadable = new WorkFailed({
              message: `The chat model ${config.model} at ${config.baseUrl} did not answer one score 0-100 for each of the ${candidates.length} stretches.`
            })
            const answer = yield* Schema.decodeUnknown(ChatAnswer)(body.toString("utf8")).pipe(Effect.mapError(() => unreadable))
            const { scores } = yield* Schema.decodeUnknown(Scores)(answer.choices[0].message.content).pipe(Effect.mapError(() => unreadable))
            if (scores.length !== candidates.length) return yield* unreadable
            return scores.map(Math.round)
          }).pipe(withSpan("OpenAiClipScorer.score", { attributes: { model: config.model, candidates: candidates.length } }))
      }))
  )
