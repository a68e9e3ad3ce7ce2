import { Effect, Option, Schema } from "effect"
import { CaptionPage, layoutCaptions, layoutRulesOf, TimedWord, toSrt, toVtt } from "../../../domain/captions.ts"
import { Conflict } from "../../../domain/errors.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { VideoId } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { templateForRender } from "../caption-templates/resolve-template.ts"
import { findVideo } from "./find-video.ts"

export const VideoCaptions = Schema.Struct({
  videoId: VideoId,
  templateId: Schema.Int.annotations({ description: "The template whose layout rules made the pages." }),
  words: Schema.Array(TimedWord).annotations({ description: "Every recognised word with its start and end." }),
  pages: Schema.Array(CaptionPage).annotations({ description: "Words grouped into lines and pages as they are burned in." }),
  srt: Schema.String.annotations({ description: "The pages as SubRip text." }),
  vtt: Schema.String.annotations({ description: "The pages as WebVTT text." })
}).annotations({ identifier: "VideoCaptions" })

/** The timed words, laid out in the video's caption style. */
export const videoCaptions = (id: string) =>
  Effect.gen(function*() {
    const video = yield* findVideo(id)
    const words = yield* (yield* VideoStore).getWords(video.id)
    if (Option.isNone(words)) {
      return yield* new Conflict({ message: "The captions are not timed yet: wait until the video's step passes building_captions." })
    }
    const template = yield* templateForRender(video.workspaceId, video.templateId)
    const pages = layoutCaptions(words.value, layoutRulesOf(template.style))
    return { videoId: video.id, templateId: template.id, words: words.value, pages, srt: toSrt(pages), vtt: toVtt(pages) }
  })

export const getVideoCaptions = operation({
  name: "getVideoCaptions",
  summary: "Get a video's captions",
  description:
    "Timed words and caption pages (JSON), with the same captions as SRT and WebVTT text. The plain files are also at /v1/videos/{id}/captions.srt and /v1/videos/{id}/captions.vtt. 409 until the captions are timed.",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({}),
  output: VideoCaptions,
  errors: ["NotFound", "Conflict"],
  http: { method: "GET", path: "/v1/videos/:id/captions" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false,
  handle: ({ id }) => videoCaptions(id).pipe(Effect.withSpan("getVideoCaptions"))
})
