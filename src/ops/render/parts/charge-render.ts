// Which balance pays a render, and its charge: credits by frame rate, or with BYOK cash at any frame rate.
// Either way the charge has one key per piece of work, so the request's charge and the job's are one
// charge, and a failure or cancel refunds it (video-work.ts).
import { Effect, Option } from "effect"
import { InsufficientCredits, WorkFailed } from "../../../../domain/errors.ts"
import { CashLedger } from "../../../../domain/ports/cash-ledger.ts"
import { Ledger } from "../../../../domain/ports/ledger.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { byokRenderMicrodollars, renderCredits } from "../../../../domain/pricing.ts"
import type { FrameRate } from "../../../../domain/rules.ts"
import { outputSeconds, type VideoRecord, workChargeKey, workKey } from "../../../../domain/video.ts"
import { nowIso } from "../../../kernel/now.ts"
import { newId } from "../../../kernel/secrets.ts"
import { chargeWork, postCharge, whileWorking } from "../../../shared/credits/charge-work.ts"
import { withSpan } from "../../../kernel/spans.ts"

const renderChargeKey = (video: VideoRecord): string => workChargeKey(workKey(video), "render")

/** Posts the render's charge on the cash balance, once per piece of work. Fails with InsufficientCash. */
const postCashCharge = (video: VideoRecord) =>
  Effect.gen(function*() {
    return yield* (yield* CashLedger).post({
      id: newId(),
      workspaceId: video.workspaceId,
      key: renderChargeKey(video),
      kind: "render_charge",
      amount: -byokRenderMicrodollars(outputSeconds(video)),
      note: "render",
      videoId: video.id,
      at: yield* nowIso
    })
  })

/**
 * The request's charges, posted in the transaction that starts the export: the render in cash with BYOK
 * (short: InsufficientCash), else in credits; and, in credits as at create, the faces its job will look
 * for (`lookingCredits`, 0 where none: facesAsked). Short credits are one InsufficientCredits for both.
 */
export const postRenderCharge = (byok: boolean, video: VideoRecord, frameRate: FrameRate, lookingCredits: number) =>
  Effect.gen(function*() {
    const render = byok ? 0 : renderCredits(outputSeconds(video), frameRate)
    // Either refusal undoes the transaction, the render's charge with it: each names what the two need.
    const refuseBoth = (taken: number) =>
      Effect.mapError((short: InsufficientCredits) => new InsufficientCredits({ required: render + lookingCredits, balance: short.balance + taken }))
    yield* byok ? postCashCharge(video) : postCharge(video, "render", render).pipe(refuseBoth(0))
    if (lookingCredits > 0) yield* postCharge(video, "reframing", lookingCredits).pipe(refuseBoth(render))
  })

/**
 * Whether the render is paid in cash: as its request paid it, else (a create that asked for `render`)
 * as the workspace's BYOK switch stands when the job runs. A switch flipped between the request and the
 * job so never adds a charge in the other ledger.
 */
const paysInCash = (video: VideoRecord) =>
  Effect.gen(function*() {
    const key = renderChargeKey(video)
    if (Option.isSome(yield* (yield* CashLedger).entry(key))) return true
    if ((yield* (yield* Ledger).entriesForWork(workKey(video))).some((entry) => entry.key === key)) return false
    return Option.exists(yield* (yield* WorkspaceStore).get(video.workspaceId), (workspace) => workspace.byok)
  })

/** The job's charge: nothing more where the request paid; a short balance ends the work. */
export const chargeRender = (video: VideoRecord, frameRate: FrameRate) =>
  Effect.gen(function*() {
    if (!(yield* paysInCash(video))) {
      return yield* chargeWork(
        video,
        "render",
        renderCredits(outputSeconds(video), frameRate),
        "The render was not charged; top up credits, then call the render operation again."
      )
    }
    yield* whileWorking(video, postCashCharge(video)).pipe(
      Effect.catchTag("InsufficientCash", (e) =>
        new WorkFailed({
          message: `Rendering with BYOK needs ${e.required} micro-dollars of cash; the workspace has ${e.balance}. ` +
            "Top up the cash balance, then call the render operation again."
        }))
    )
  }).pipe(withSpan("chargeRender", { attributes: { videoId: video.id, frameRate } }))
