// The job catalogue holds the worker together: each declared job has exactly one handler, in its lane;
// a payload is checked by the compiler where it is enqueued; a payload that no longer decodes ends its
// job dead instead of crashing it again and again.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Job } from "../../domain/ports/job-queue.ts"
import { enqueue, handle, type JobOutcome } from "../../src/kernel/job.ts"
import { DeliverWebhook, GenerateCaptions, JOB_TYPES, RenderVideo } from "../../src/kernel/job-catalogue.ts"
import { jobHandlers } from "../../src/worker.ts"

const jobOf = (kind: string, payload: unknown): Job => ({
  id: "job-1",
  lane: "media",
  kind,
  payload,
  runAt: 0,
  attempts: 1,
  status: "running",
  lockedUntil: null,
  dedupeKey: null,
  lastError: null,
  workspaceId: null,
  claimedBy: null,
  traceParent: null
})

describe("job catalogue", () => {
  it("has exactly one handler for each declared job, in the declared lane", () => {
    const handlers = jobHandlers()
    expect(handlers.map((h) => h.kind).sort()).toEqual(JOB_TYPES.map((t) => t.kind).sort())
    for (const type of JOB_TYPES) expect(handlers.find((h) => h.kind === type.kind)?.lane).toBe(type.lane)
  })

  it("gives the handler the payload decoded, and ends a job whose payload does not decode dead", async () => {
    const seen: Array<unknown> = []
    const handler = handle(DeliverWebhook, {
      run: (payload) => Effect.sync((): JobOutcome => {
        seen.push(payload)
        return { _tag: "Done" }
      }),
      onDead: () => Effect.void
    })
    // A job queued before redelivery existed has no series: it is the first.
    expect(await Effect.runPromise(handler.run(jobOf(DeliverWebhook.kind, { eventId: "e1" })))).toEqual({ _tag: "Done" })
    expect(seen).toEqual([{ eventId: "e1", series: 1 }])
    const outcome = await Effect.runPromise(handler.run(jobOf(DeliverWebhook.kind, { event: "renamed" })))
    expect(outcome).toEqual({ _tag: "Dead", error: "the payload of this webhook.deliver job does not decode" })
    expect(seen).toHaveLength(1)
  })

  it("refuses at compile time a payload of another shape than the job's", () => {
    const options = { dedupeKey: null }
    // Built, never run: what is checked here is that these lines do not compile.
    const wrong = [
      // @ts-expect-error a renamed field
      enqueue(GenerateCaptions, { videoID: "v1" }, options),
      // @ts-expect-error a missing field
      enqueue(RenderVideo, { videoId: "v1", workKey: "v1:1" }, options),
      // @ts-expect-error a field of the wrong type
      enqueue(DeliverWebhook, { eventId: "e1", series: "2" }, options)
    ]
    expect(wrong).toHaveLength(3)
  })
})
