// POST /v1/gameplay-videos, tool create_gameplay_video: a script narrated over gameplay footage, with
// big centred captions, 1080x1920. Footage is a built-in game (made to the narration's length) or a
// clip the workspace uploaded (looped); `splitScreen` puts an uploaded picture or clip above it.
import { Effect, Schema } from "effect"
import { GAMES, GameKind } from "../../../domain/gameplay.ts"
import type { GameplayVisuals } from "../../../domain/generated-project.ts"
import { requireUpload } from "../files/parts/require-upload.ts"
import { operation } from "../../kernel/operation.ts"
import { CreatedVideo } from "../caption-video/create-caption-video.ts"
import { ScriptVideoFields, startGeneratedVideo } from "../generated-video/parts/start-generated-video.ts"
import { speechPriceText } from "../../../domain/pricing.ts"
import { getVideo } from "../videos/get-video.ts"

const DEFAULT_GAME: GameKind = "runner"

const isGame = Schema.is(GameKind)

export const createGameplayVideo = operation({
  name: "createGameplayVideo",
  summary: "Create a gameplay video",
  description:
    "Narrates a script over gameplay footage, 1080x1920, with big centred captions. `footage` is a built-in game " +
    `(${GAMES.map((g) => `\`${g.id}\`: ${g.name.toLowerCase()}`).join(", ")}; default \`${DEFAULT_GAME}\`), played for as long as the narration, ` +
    "or the key of an uploaded video or gif (POST /v1/files), looped. `splitScreen.fileKey` shows an uploaded picture or clip in the top half. " +
    `Costs ${speechPriceText("narration")}; rendering is charged as usual. Returns at once with status \`processing\`.`,
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...ScriptVideoFields,
    footage: Schema.optional(Schema.String.annotations({
      description: "A built-in game (`runner`, `racer`, `blocks`) or the key of an uploaded video or gif."
    })),
    splitScreen: Schema.optional(Schema.Struct({
      fileKey: Schema.String.annotations({ description: "Key of an uploaded picture, gif or video shown above the gameplay." })
    }).annotations({ description: "Split screen: an upload in the top half, gameplay in the bottom half." }))
  }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/gameplay-videos" },
  access: "workspace",
  tool: "create_gameplay_video",
  openWorld: true,
  cli: "gameplay",
  idempotent: true,
  readBack: getVideo,
  handle: ({ footage, splitScreen, ...request }) =>
    Effect.gen(function*() {
      const chosen = footage ?? DEFAULT_GAME
      if (!isGame(chosen)) yield* requireUpload(chosen, "footage", ["video", "gif"])
      if (splitScreen !== undefined) yield* requireUpload(splitScreen.fileKey, "splitScreen.fileKey", ["image", "gif", "video"])
      const visuals: GameplayVisuals = {
        _tag: "Gameplay",
        footage: isGame(chosen) ? { _tag: "Game", game: chosen } : { _tag: "Upload", key: chosen },
        top: splitScreen?.fileKey ?? null
      }
      return yield* startGeneratedVideo(request, { kind: "gameplay", aspectRatio: "9:16", visuals })
    })
})
