// POST /v1/ai-videos (tool create_ai_video) and POST /v1/ai-videos/v3 (tool create_ai_video_v3): a
// script becomes a narrated, illustrated video. V2 pictures come from the server's image generator in
// its default look; V3 draws them in an art style the caller picks.
import { Effect, Schema } from "effect"
import { ART_STYLES } from "../../../domain/art-styles.ts"
import { InvalidInput } from "../../../domain/errors.ts"
import { AspectRatio } from "../../../domain/generated-project.ts"
import { operation } from "../../kernel/operation.ts"
import { CreatedVideo } from "../caption-video/create-caption-video.ts"
import { ScriptVideoFields, type ScriptVideoRequest, startGeneratedVideo } from "../generated-video/parts/start-generated-video.ts"
import { speechPriceText } from "../../../domain/pricing.ts"
import { getVideo } from "../videos/get-video.ts"

/** V2 draws in this style: the server's default look. */
export const DEFAULT_ART_STYLE_ID = ART_STYLES[0]!.id

const AiVideoFields = { ...ScriptVideoFields, aspectRatio: Schema.optional(AspectRatio) }

const startAiVideo = (request: ScriptVideoRequest & { readonly aspectRatio?: AspectRatio | undefined }, artStyleId: string) =>
  Effect.gen(function*() {
    if (!ART_STYLES.some((s) => s.id === artStyleId)) {
      return yield* new InvalidInput({
        field: "artStyleId",
        message: `unknown art style ${JSON.stringify(artStyleId)}; GET /v1/art-styles lists them (${ART_STYLES.map((s) => s.id).join(", ")})`
      })
    }
    return yield* startGeneratedVideo(request, {
      kind: "ai",
      aspectRatio: request.aspectRatio ?? "9:16",
      visuals: { _tag: "Illustrated", artStyleId, scenes: [] }
    })
  })

const PIPELINE =
  "The script is spoken (word times from the speech engine), cut into scenes at sentence ends, one picture is drawn per scene, " +
  `and captions follow the words. Costs ${speechPriceText("narration")}; rendering is charged as usual. ` +
  "Returns at once with status `processing`; poll GET /v1/videos/{id} or pass `webhookUrl`."

export const createAiVideo = operation({
  name: "createAiVideo",
  summary: "Create an AI video",
  description: `Turns a script into a narrated video with generated images (the server's image generator in its default look). ${PIPELINE}`,
  path: Schema.Struct({}),
  payload: Schema.Struct(AiVideoFields),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/ai-videos" },
  access: "workspace",
  tool: "create_ai_video",
  openWorld: true,
  cli: "ai",
  idempotent: true,
  readBack: getVideo,
  handle: (input) => startAiVideo(input, DEFAULT_ART_STYLE_ID)
})

export const createAiVideoV3 = operation({
  name: "createAiVideoV3",
  summary: "Create an AI video (V3, art styles)",
  description: `Turns a script into a narrated video drawn in one of the art styles (GET /v1/art-styles). ${PIPELINE}`,
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...AiVideoFields,
    artStyleId: Schema.optional(Schema.String.annotations({
      description: `An art style from GET /v1/art-styles; default \`${DEFAULT_ART_STYLE_ID}\`.`
    }))
  }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/ai-videos/v3" },
  access: "workspace",
  tool: "create_ai_video_v3",
  openWorld: true,
  cli: "ai-v3",
  idempotent: true,
  readBack: getVideo,
  handle: ({ artStyleId, ...input }) => startAiVideo(input, artStyleId ?? DEFAULT_ART_STYLE_ID)
})
