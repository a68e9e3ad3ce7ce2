import { Effect, Option, Schema } from "effect"
import { LineStarts, NO_EDITS, StyleAdjustments } from "../../../domain/caption-edits.ts"
import { EmojiMode } from "../../../domain/caption-emoji.ts"
import { EmphasisMode } from "../../../domain/caption-emphasis.ts"
import { CaptionHook } from "../../../domain/caption-hook.ts"
import { CaptionReadability, readabilityOf } from "../../../domain/caption-readability.ts"
import { CaptionPage, CaptionStyle, layoutCaptions, layoutRulesOf, TimedWord, toSrt, toVtt } from "../../../domain/captions.ts"
import { Conflict } from "../../../domain/errors.ts"
import { Language } from "../../../domain/languages.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { Platform } from "../../../domain/safe-zones.ts"
import { awaitsFaces, Framing, ReframeSettings } from "../../../domain/reframe.ts"
import { Cut, retimeCaptions, TrimSettings } from "../../../domain/trim.ts"
import { VideoId, type VideoRecord } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { burnStyleFor } from "../caption-templates/parts/resolve-template.ts"
import { findVideo } from "./parts/find-video.ts"

export const VideoCaptions = Schema.Struct({
  videoId: VideoId,
  templateId: Schema.Int.annotations({ description: "The template the captions are styled with." }),
  revision: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "Counts the edits saved so far (0: none). Send it with an edit to have it refused (409) if someone saved another edit since."
  }),
  language: Schema.NullOr(Language).annotations({
    description: "The spoken language the words were recognised in, as asked at create; null when it was left to the recogniser."
  }),
  words: Schema.Array(TimedWord).annotations({ description: "Every word with its start and end, as recognised or spoken and then edited." }),
  lineStarts: LineStarts,
  adjustments: StyleAdjustments,
  style: CaptionStyle.annotations({ description: "The style the captions are burned in: the template's with the adjustments over it." }),
  hook: Schema.NullOr(CaptionHook).annotations({ description: "The title over the first seconds; null when there is none." }),
  platform: Platform,
  emphasis: EmphasisMode,
  emoji: EmojiMode,
  trim: Schema.NullOr(TrimSettings).annotations({ description: "What the trim cuts; null when no trim was asked." }),
  cuts: Schema.Array(Cut).annotations({
    description:
      "Spans of the source left out of the output, in order: the trim's, less those restored. Words, pages and `lineStarts` are on the source's timeline (as the editor plays it); the output's captions are these moved back by the cuts before them, and a word inside a cut is not in the output."
  }),
  reframe: Schema.NullOr(ReframeSettings).annotations({ description: "The shape and mode the output was reframed to; null when it keeps the source's frame." }),
  framing: Schema.NullOr(Framing).annotations({
    description: "Where the output's windows are in the source over time (source pixels, source timeline); null without a reframe, or until the source was looked at (`face` or `split` asked after the video was made: its next render looks)."
  }),
  pages: Schema.Array(CaptionPage).annotations({ description: "Words grouped into lines and pages as they are burned in, on the source's timeline." }),
  readability: CaptionReadability,
  srt: Schema.String.annotations({ description: "The output's pages as SubRip text (after the trim's cuts, on the output's timeline)." }),
  vtt: Schema.String.annotations({ description: "The output's pages as WebVTT text (after the trim's cuts, on the output's timeline)." })
}).annotations({ identifier: "VideoCaptions" })
export type VideoCaptions = typeof VideoCaptions.Type

/** A project's captions as the export will burn them: its words, laid out with its edits, in its adjusted style. */
export const captionsToBurn = (video: VideoRecord) =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const words = yield* videos.getWords(video.id)
    const edits = Option.getOrElse(yield* videos.getCaptionEdits(video.id), () => NO_EDITS)
    const { template, style } = yield* burnStyleFor(video, edits.style)
    const wordList = Option.getOrElse(words, () => [])
    const rules = layoutRulesOf(style)
    // The output's captions: after the trim's cuts, on the shortened timeline.
    const output = retimeCaptions(wordList, edits.lineStarts, edits.cuts)
    return {
      timed: Option.isSome(words),
      template,
      edits,
      style,
      words: wordList,
      pages: layoutCaptions(wordList, rules, edits.lineStarts),
      outputPages: edits.cuts.length === 0 ? null : layoutCaptions(output.words, rules, output.lineStarts)
    }
  })

/** The timed words, laid out in the video's caption style with its edits. */
export const videoCaptions = (id: string) =>
  Effect.gen(function*() {
    const video = yield* findVideo(id)
    const captions = yield* captionsToBurn(video)
    if (!captions.timed) {
      return yield* new Conflict({ message: "The captions are not timed yet: wait until the video's step passes building_captions." })
    }
    const { edits, outputPages, pages, style, template, words } = captions
    const shown = outputPages ?? pages
    return {
      videoId: video.id,
      templateId: template.id,
      revision: edits.revision,
      language: video.language,
      words,
      lineStarts: edits.lineStarts,
      adjustments: edits.style,
      style,
      hook: edits.hook,
      platform: edits.platform,
      emphasis: edits.emphasis,
      emoji: edits.emoji,
      trim: edits.trim,
      cuts: edits.cuts,
      reframe: edits.reframe,
      // The middle window that stands while faces asked after create wait for the next render is no plan.
      framing: awaitsFaces(edits.reframe, edits.framing) ? null : edits.framing,
      pages,
      readability: readabilityOf(shown),
      srt: toSrt(shown),
      vtt: toVtt(shown)
    } satisfies VideoCaptions
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
  handle: ({ id }) => videoCaptions(id)
})
