import { Effect } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { type VideoRecord, workKey } from "../../../domain/video.ts"
import { nowIso } from "../../kernel/now.ts"
import { newId } from "../../kernel/secrets.ts"

/**
 * Charges one item of the video's current piece of work, once: the ledger key makes a retried job
 * charge nothing more, and the work key lets a failure refund it. Short credits end the work.
 */
export const chargeWork = (
  video: VideoRecord,
  item: "captions" | "speech" | "render",
  credits: number,
  whenShort: (required: number, balance: number) => string
) =>
  Effect.gen(function*() {
    yield* (yield* Ledger).post({
      id: newId(),
      workspaceId: video.workspaceId,
      key: `${workKey(video)}:${item}`,
      amount: -credits,
      reason: item,
      workKey: workKey(video),
      videoId: video.id,
      at: yield* nowIso
    })
  }).pipe(
    Effect.catchTag("InsufficientCredits", (e) => new WorkFailed({ message: whenShort(e.required, e.balance) })),
    Effect.withSpan("chargeWork", { attributes: { videoId: video.id, item, credits } })
  )
