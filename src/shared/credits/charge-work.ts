import { Effect, Option } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { isWorking, type VideoRecord, workChargeKey, type WorkItem, workKey } from "../../../domain/video.ts"
import { nowIso } from "../../kernel/now.ts"
import { newId } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"


/**
 * Posts the charge for one item of the video's current piece of work, once: the ledger key makes a
 * second post (a retried job, or the job after a request that charged up front) charge nothing more,
 * and the work key lets a failure refund it. Fails with InsufficientCredits when credits are short.
 */
export const postCharge = (video: VideoRecord, item: WorkItem, credits: number) =>
  Effect.gen(function*() {
    return yield* (yield* Ledger).post({
      id: newId(),
      workspaceId: video.workspaceId,
      key: workChargeKey(workKey(video), item),
      amount: -credits,
      reason: item,
      operation: item,
      workKey: workKey(video),
      videoId: video.id,
      at: yield* nowIso
    })
  })

/**
 * Posts a charge for the video's current piece of work only while that work is under way: the record
 * is held while the charge is posted, so a cancel comes wholly before it (nothing is charged) or after
 * it (its refund includes it).
 */
export const whileWorking = <A, E, R>(video: VideoRecord, charge: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const current = yield* (yield* VideoStore).getForUpdate(video.id)
    if (!Option.exists(current, (v) => isWorking(v) && workKey(v) === workKey(video))) {
      return yield* new WorkFailed({ message: "The work had already ended when it was to be charged." })
    }
    return yield* charge
  }).pipe((self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)))

/**
 * Charges one item of the video's current piece of work in credits, once, while it is under way. Short
 * credits end the work with "insufficient credits: needs N, has M." and `advice` (what to do next).
 */
export const chargeWork = (
  video: VideoRecord,
  item: WorkItem,
  credits: number,
  advice: string
) =>
  whileWorking(video, postCharge(video, item, credits)).pipe(
    Effect.asVoid,
    Effect.catchTag("InsufficientCredits", (e) =>
      new WorkFailed({ message: `insufficient credits: needs ${e.required}, has ${e.balance}. ${advice}` })),
    withSpan("chargeWork", { attributes: { videoId: video.id, item, credits } })
  )
