import { Clock, Effect, Option, Schema } from "effect"
import { Conflict, NotFound } from "../../../domain/errors.ts"
import { JobQueue } from "../../../domain/ports/job-queue.ts"
import { operation } from "../../kernel/operation.ts"

export const retryJob = operation({
  name: "retryJob",
  summary: "Retry a dead job (admin)",
  description:
    "Queues a dead job again, due now, its attempts counted from zero; a job that is not dead is a 409 saying its status. " +
    "It does not revive the record the job worked for: the job's handler decides what running it again does. A job goes " +
    "dead after its handler's clean-up, so a generate, render or caption-removal job finds its video, export or removal " +
    "already failed (and refunded) and ends without working, an editor-picture job finds its failure recorded, and a webhook " +
    "delivery finds its event dropped; those stay as they are (create the video or call render again; redeliver the event). " +
    "The monthly credit grant and the expired-file sweep run again in full (grants already made are not repeated), as does a " +
    "job that went dead because no worker had a handler for its kind.",
  path: Schema.Struct({ id: Schema.String.annotations({ description: "The job's id, as the queue status lists it." }) }),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    jobId: Schema.String.annotations({ description: "The job." }),
    status: Schema.Literal("queued").annotations({ description: "Always `queued`: the next free worker of its lane claims it." }),
    runAt: Schema.String.annotations({ description: "When it became due (ISO 8601): now." })
  }),
  errors: ["NotFound", "Conflict"],
  http: { method: "POST", path: "/admin/jobs/:id/retry" },
  access: "admin",
  tool: null,
  cli: "jobs:retry",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const queue = yield* JobQueue
      const now = yield* Clock.currentTimeMillis
      if (yield* queue.requeueDead(id, now)) return { jobId: id, status: "queued" as const, runAt: new Date(now).toISOString() }
      // Not requeued: say why, from the job as it stands.
      const job = yield* queue.get(id)
      if (Option.isNone(job)) return yield* new NotFound({ resource: "job", id })
      return yield* new Conflict({ message: `Job ${id} is ${job.value.status}; only a dead job can be retried.` })
    })
})
