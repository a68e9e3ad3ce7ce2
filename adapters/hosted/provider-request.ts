// One call to a hosted provider's HTTP API, failing with what a person can act on: the
// provider's own message when it refuses, the base URL when it cannot be reached, a time limit.
import { Effect, Option } from "effect"
import { WorkFailed } from "../../domain/errors.ts"

export interface ProviderRequest {
  /** The provider as a person knows it, e.g. `OpenAI`. */
  readonly provider: string
  /** As configured, with or without a trailing `/v1`. */
  readonly baseUrl: string
  /** From `/v1` on, query included. */
  readonly path: string
  readonly init: RequestInit
  /** What was asked, for messages, e.g. `speak the text`. */
  readonly action: string
  /** The provider's own message in an error body, where the body has one. */
  readonly errorMessage: (body: string) => Option.Option<string>
}

/** Several minutes of speech, or a large picture, take a provider well under a minute; this only catches a hung call. */
const TIMEOUT = "5 minutes"

const endpoint = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}${path}`

/** The body of a 2xx answer. */
export const requestProvider = (request: ProviderRequest): Effect.Effect<Buffer, WorkFailed> =>
  Effect.gen(function*() {
    const { provider, action, baseUrl } = request
    const { body, response } = yield* Effect.tryPromise({
      // The signal aborts the request, body included, when the timeout interrupts it.
      try: async (signal) => {
        const response = await fetch(endpoint(baseUrl, request.path), { ...request.init, signal })
        return { response, body: Buffer.from(await response.arrayBuffer()) }
      },
      catch: (e) =>
        new WorkFailed({
          message: `${provider} could not ${action}: ${baseUrl} could not be reached (${
            e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)
          }).`
        })
    })
    if (!response.ok) {
      const text = body.toString("utf8")
      const detail = Option.getOrElse(request.errorMessage(text), () => text.slice(0, 300) || response.statusText)
      return yield* new WorkFailed({ message: `${provider} could not ${action} (HTTP ${response.status}): ${detail}` })
    }
    return body
  }).pipe(
    Effect.timeoutFail({
      duration: TIMEOUT,
      onTimeout: () => new WorkFailed({ message: `${request.provider} did not answer within ${TIMEOUT}.` })
    })
  )
