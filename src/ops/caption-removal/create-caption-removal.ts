// POST /v1/caption-remover, tool create_caption_removal: wipes burned-in captions, watermarks and
// logos from a video (at a URL, or uploaded as multipart on HTTP; the caption video's limits). Its own
// record and its own work: answers at once with status `processing`, ends with a caption_removal event.
import { Effect, Either, Schema } from "effect"
import { applyRemovalEvent, newCaptionRemoval } from "../../../domain/caption-removal.ts"
import { REMOVAL_ANALYSIS_CREDITS_PER_MINUTE, removalAnalysisCredits, REMOVAL_WIPE_CREDITS_PER_MINUTE } from "../../../domain/pricing.ts"
import { checkSourceLimits, SOURCE_LIMITS, SourceUrl, WebhookUrl } from "../../../domain/rules.ts"
import { PixelBox, RemovalTarget } from "../../../domain/text-regions.ts"
import { RemoveCaptions, removalJobKey } from "../../kernel/job-catalogue.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { removalWork } from "../../kernel/removal-work.ts"
import { newId } from "../../kernel/secrets.ts"
import { startWork } from "../../kernel/start-work.ts"
import { recordedSource, type WorkSource } from "../../shared/media/require-source.ts"
import { postRemovalCharge } from "./parts/charge-removal.ts"
import { getCaptionRemoval } from "./get-caption-removal.ts"
import { withSpan } from "../../kernel/spans.ts"

export const CreatedCaptionRemoval = Schema.Struct({
  id: Schema.UUID.annotations({ description: "Identifier of the caption removal; GET /v1/caption-remover/{id} follows it." }),
  status: Schema.Literal("processing").annotations({ description: "Always `processing`: the work runs in the background." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "CreatedCaptionRemoval", description: "The new caption removal, processing in the background." })

/** The fields besides the source, shared by the JSON operation and the multipart upload. */
export const CaptionRemovalFields = {
  target: Schema.optionalWith(RemovalTarget, { default: () => "all" as const }),
  region: Schema.optional(PixelBox.annotations({
    description: "Only text inside this rectangle (the video's pixels) is wiped; default the whole frame."
  })),
  webhookUrl: Schema.optional(WebhookUrl)
}

export interface CaptionRemovalRequest {
  readonly source: WorkSource
  readonly target?: RemovalTarget | undefined
  readonly region?: PixelBox | undefined
  readonly webhookUrl?: string | undefined
}

export const startCaptionRemoval = (request: CaptionRemovalRequest) =>
  startWork(removalWork, {
    name: "caption removal",
    check: () => Effect.void,
    render: { needed: true, refusal: "Removing captions makes a new mp4, which needs a paid plan (or BYOK)." },
    prepare: (workspace) =>
      Effect.gen(function*() {
        const source = yield* recordedSource(workspace, request.source, checkSourceLimits)
        const at = yield* nowIso
        const created = newCaptionRemoval({
          id: newId(),
          workspaceId: workspace.id,
          source,
          webhookUrl: request.webhookUrl ?? null,
          options: { target: request.target ?? "all", region: request.region ?? null },
          at
        })
        // The first minute of finding text is paid up front: a short balance is a 402 and nothing is created.
        const first = removalAnalysisCredits(1)
        const removal = Either.getOrThrow(applyRemovalEvent(created, { _tag: "Charged", credits: first, at }))
        return {
          record: removal,
          job: { type: RemoveCaptions, payload: { removalId: removal.id }, dedupeKey: removalJobKey(removal.id) },
          charge: postRemovalCharge(removal, "start", first, at)
        }
      })
  }).pipe(
    Effect.map((removal) => ({ id: removal.id, status: "processing" as const, createdAt: removal.createdAt })),
    withSpan("startCaptionRemoval")
  )

export const createCaptionRemoval = operation({
  name: "createCaptionRemoval",
  summary: "Remove burned-in captions, watermarks and logos",
  description:
    "Finds burned-in text (captions, watermarks, logos, handles) in a video offline and wipes it while it is on screen, in one " +
    "encode: same size, frame rate and length, audio untouched. " +
    `${SOURCE_LIMITS}, checked once the video at \`url\` is fetched (the removal fails and is refunded). ` +
    "`target` picks captions only or watermarks only; " +
    "`region` limits the search to a rectangle. A video with no text completes unchanged (`regions` empty, `videoUrl` the " +
    `source) and costs only the analysis: ${REMOVAL_ANALYSIS_CREDITS_PER_MINUTE} credits per started minute, plus ` +
    `${REMOVAL_WIPE_CREDITS_PER_MINUTE} per started minute when text is wiped; the first minute of the analysis is charged at ` +
    "create (a short balance is a 402 and nothing is created), the rest once the source's length is known. Needs a paid plan (or BYOK). Returns at once with " +
    "status `processing`; poll GET /v1/caption-remover/{id} or pass `webhookUrl` (events `caption_removal.completed` and " +
    "`caption_removal.failed`; a failure is refunded).",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: SourceUrl, ...CaptionRemovalFields }),
  output: CreatedCaptionRemoval,
  errors: ["InvalidInput", "PlanForbids", "InsufficientCredits"],
  http: { method: "POST", path: "/v1/caption-remover" },
  access: "workspace",
  tool: "create_caption_removal",
  openWorld: true,
  cli: "remove-captions",
  idempotent: true,
  readBack: getCaptionRemoval,
  handle: ({ url, ...rest }) => startCaptionRemoval({ source: { _tag: "Url", url }, ...rest }),
  upload: (file, rest) => startCaptionRemoval({ source: { _tag: "Upload", ...file }, ...rest })
})
