// What a route's unanswered failure becomes: a client that went away mid-answer (the platform's 499) is
// passed on as the interruption it is, with no error logged; any other defect is a 500 quoting the request id.
import { HttpApiBuilder, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Exit, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { answerFailure } from "../../adapters/http/failure-answer.ts"

const request = HttpServerRequest.fromWeb(new Request("http://127.0.0.1/media/ws/file/source.mp4"))

/** The answer's exit, and the messages logged meanwhile. */
const answered = (cause: Cause.Cause<unknown>) => {
  const logged: Array<string> = []
  const logger = Logger.make(({ message }) => logged.push(String(message)))
  // The router is read only to answer a missing route.
  const provided = Effect.exit(answerFailure(request, cause)).pipe(Effect.provide(HttpApiBuilder.Router.Live), Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
  return Effect.runPromise(provided).then(
    (exit) => ({ exit, logged })
  )
}

describe("answerFailure", () => {
  it("passes on a client's abort (the interruption the platform answers 499) and logs nothing", async () => {
    const aborted = Cause.sequential(Cause.interrupt(HttpServerError.clientAbortFiberId), Cause.die(HttpServerResponse.empty({ status: 499 })))
    const { exit, logged } = await answered(aborted)
    expect(Exit.isFailure(exit) && exit.cause === aborted).toBe(true)
    expect(logged).toEqual([])
  })

  it("answers any other defect 500, and logs it", async () => {
    const { exit, logged } = await answered(Cause.die(new Error("disk on fire")))
    expect(Exit.isSuccess(exit) && exit.value.status).toBe(500)
    expect(logged).toEqual(["request failed"])
  })
})
