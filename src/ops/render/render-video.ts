// POST /v1/videos/:id/render, tool render_video: exports the mp4 of a video whose captions are
// timed. A new piece of work: its own charge, its own event (none when started in the editor).
import { Effect, Either, Option, Schema } from "effect"
import { Conflict, NotFound, PlanForbids } from "../../../domain/errors.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { canRender } from "../../../domain/plans.ts"
import { FrameRate, RenderFormat, WebhookUrl } from "../../../domain/rules.ts"
import { transition, Video, VideoId } from "../../../domain/video.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { presentVideo } from "../../kernel/present-video.ts"
import { postRenderCharge } from "./parts/charge-render.ts"
import { facesAsked } from "./parts/faces-asked.ts"
import { requireSourcesKept } from "./parts/require-sources-kept.ts"
import { BYOK_RENDER_PRICE_TEXT, reframeCredits } from "../../../domain/pricing.ts"

/** Starts an export: in the API (it sends its event) or in the editor (it sends none). */
export const requestExport = (
  { id, format, frameRate, webhookUrl }: {
    readonly id: string
    readonly format?: RenderFormat | undefined
    readonly frameRate?: FrameRate | undefined
    readonly webhookUrl?: string | undefined
  },
  startedIn: "api" | "editor"
) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    if (!canRender(workspace.plan, workspace.byok)) {
      return yield* new PlanForbids({ plan: workspace.plan, message: "Rendering an mp4 needs a paid plan (or BYOK)." })
    }
    const options = { format: format ?? "standard", frameRate: frameRate ?? 30 } as const
    const tx = yield* Transactor
    const video = yield* tx.atomically(Effect.gen(function*() {
      // Held until the commit: of concurrent renders one starts the export, the others then find it running (409).
      const current = yield* (yield* VideoStore).getForUpdate(id).pipe(
        Effect.map(Option.filter((v) => v.workspaceId === workspace.id)),
        Effect.flatMap(Option.match({
          onNone: () => new NotFound({ resource: "video", id }),
          onSome: Effect.succeed
        }))
      )
      const event = { _tag: "ExportRequested", options, webhookUrl: webhookUrl ?? null, startedIn, at: current.updatedAt } as const
      const check = transition(current, event)
      if (Either.isLeft(check)) return yield* new Conflict({ message: `Cannot render now: ${check.left.reason}.` })
      yield* requireSourcesKept(current)
      // Charged (credits, or cash with BYOK) in the transaction that starts the export: concurrent requests can
      // never spend the same balance, a short balance is a 402 that undoes the start, and the job's charge adds nothing.
      // The video is written before the ledger is locked, the order a failure's refund takes too.
      const exporting = yield* videoWork.apply(id, (at) => ({ ...event, at }))
      // `face` or `split` asked after the video was made: the job looks for the faces, paid here with the render.
      const looking = (yield* facesAsked(exporting)) === null ? 0 : reframeCredits(exporting.durationSeconds ?? 0)
      yield* postRenderCharge(workspace.byok, exporting, options.frameRate, looking)
      return exporting
    }))
    return yield* presentVideo(video)
  })

export const renderVideoOperation = operation({
  name: "renderVideo",
  summary: "Export the mp4 of a video",
  description:
    `Exports the mp4 of a video whose captions are timed (completed, or failed after its captions were timed). Takes the render fields; \`webhookUrl\` replaces the stored one for this and later events (deliveries already pending keep theirs). The status stays terminal while the export runs; progress shows in \`export\`. Re-rendering (another format or fps) is a new charge and a new event; the previous videoUrl stays until the new mp4 lands. A caption video switched to \`face\` or \`split\` reframing after it was made is first looked at for faces: that reframing is charged in credits with the render, as at create, and counted in \`export.progress\`. 409 while an export runs, or when a file the video was made from expired under the plan's file retention (the error says \`source expired\`; nothing is charged); 402 when credits are short (for the render and such a reframing together), or with BYOK when the cash balance is short (a BYOK render costs ${BYOK_RENDER_PRICE_TEXT} from the cash balance, at any frame rate, and no credits); 403 when the plan cannot render.`,
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({
    format: Schema.optional(RenderFormat),
    frameRate: Schema.optional(FrameRate),
    webhookUrl: Schema.optional(WebhookUrl)
  }),
  output: Video,
  errors: ["NotFound", "Conflict", "InsufficientCredits", "InsufficientCash", "PlanForbids"],
  http: { method: "POST", path: "/v1/videos/:id/render" },
  access: "workspace",
  tool: "render_video",
  openWorld: true,
  cli: "render",
  idempotent: true,
  handle: (input) => requestExport(input, "api")
})
