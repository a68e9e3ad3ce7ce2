// PATCH /v1/videos/:id/captions, tool edit_captions: the edits the web editor makes, for scripts too:
// fix words and their times, break lines, swap the template, adjust the style. A finished mp4 keeps
// what it was rendered with until the next render; editing sends no event.
import { Effect, Either, Option, Schema } from "effect"
import {
  checkLineStarts,
  checkWords,
  type CaptionEdits,
  type EditProblem,
  LineStarts,
  NO_EDITS,
  splitSpacedWords,
  StyleAdjustments
} from "../../../domain/caption-edits.ts"
import { EmojiMode, withoutEmoji } from "../../../domain/caption-emoji.ts"
import { EmphasisMode, withoutEmphasis } from "../../../domain/caption-emphasis.ts"
import { CaptionHook } from "../../../domain/caption-hook.ts"
import { TimedWord } from "../../../domain/captions.ts"
import { Conflict, InvalidInput, NotFound } from "../../../domain/errors.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { Platform } from "../../../domain/safe-zones.ts"
import { checkCuts, Cut, cutSeconds, planCuts, TrimSettings } from "../../../domain/trim.ts"
import { awaitsFaces, CameraKey, checkCameraPaths, MAX_CAMERA_KEYS, ReframeSettings, replansFromFaces, reshapeFraming } from "../../../domain/reframe.ts"
import { editRefusal, VideoId } from "../../../domain/video.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { requireTemplate } from "../caption-templates/parts/resolve-template.ts"
import { chooseEmojiFor, chooseEmphasisFor } from "./parts/mark-words.ts"
import { findVideo } from "./parts/find-video.ts"
import { realignRetyped } from "./parts/realign-retyped.ts"
import { VideoCaptions, videoCaptions } from "./get-video-captions.ts"

const MAX_WORDS = 50_000

const refuse = (problem: EditProblem) => new InvalidInput(problem)

export const editVideoCaptions = operation({
  name: "editVideoCaptions",
  summary: "Edit a video's captions and style",
  description:
    "Changes what the next render burns in, as the web editor does. `words` replaces the word list whole (fix a word's text, start or end; leave a word out to delete it; a word whose text holds spaces becomes that many words). Words whose text is new (retyped) are timed again by aligning them to the source's audio between the words around them; where that fails they keep the times sent (a split word shares its time by length). `lineStarts` sets where lines break (null: automatic). `templateId` swaps the template; `adjustments` replaces the style adjustments over it whole (`{}` clears them), e.g. `{\"position\": \"top\", \"marginRatio\": 0.15}` moves the block. `hook` sets the title over the first seconds (null removes it); `platform` keeps captions and hook out of that app's overlays. A word's `emoji` is drawn in colour beside its line; `emoji` and `emphasis` choose them afresh (`auto`) or clear them (`off`). `trim` cuts pauses and filler words afresh; `cuts` replaces the spans left out (leave one out to restore it), and the video's `duration` follows. `reframe` asks another output shape or mode (the video's `width` and `height` follow); `framing.paths` replaces a reframed video's window paths (keys moved or added where a window should be at a time). Fields left out stay as they are; when `words` changes the number of words and `lineStarts` is left out, lines go back to automatic. Send `revision` (from the last answer) to have the edit refused with 409 if another edit was saved since. 409 while the video is being generated or exported, or after its media were deleted. An mp4 already rendered stays as it was until the video is rendered again. No webhook event is sent.",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({
    words: Schema.optional(Schema.Array(TimedWord).pipe(Schema.maxItems(MAX_WORDS))).annotations({
      description: "The whole word list, in order, each with text, start and end in seconds."
    }),
    lineStarts: Schema.optional(LineStarts),
    templateId: Schema.optional(Schema.Int).annotations({
      description: "A built-in template (negative id) or one of the workspace's saved templates (positive id)."
    }),
    adjustments: Schema.optional(StyleAdjustments),
    hook: Schema.optional(Schema.NullOr(CaptionHook)).annotations({ description: "The hook title over the first seconds; null removes it." }),
    platform: Schema.optional(Platform),
    emphasis: Schema.optional(EmphasisMode).annotations({
      description:
        "`auto` chooses the words to emphasise afresh, in the lines as they will be shown (the speech's loudness counts only at generation); `off` clears every word's emphasis. Left out: each word's `emphasis` flag as sent in `words` (or as stored)."
    }),
    emoji: Schema.optional(EmojiMode).annotations({
      description:
        "`auto` chooses an emoji for each line afresh, in the lines as they will be shown; `off` removes every emoji. Left out: each word's `emoji` as sent in `words` (or as stored): send a word with `emoji` to add or change a line's, without it to remove it."
    }),
    trim: Schema.optional(Schema.NullOr(TrimSettings)).annotations({
      description: "Cut pauses and filler words afresh from the words (as sent, or as stored); null cuts nothing. Replaces every cut."
    }),
    cuts: Schema.optional(Schema.Array(Cut).pipe(Schema.maxItems(MAX_WORDS))).annotations({
      description: "The spans of the source to leave out, replacing the stored ones: send them without one to restore it. Taken after `trim`."
    }),
    reframe: Schema.optional(Schema.NullOr(ReframeSettings)).annotations({
      description:
        "A caption video's output shape and mode, asked again (null: the source's own frame). `center` and `fit` are planned afresh; the mode the video has (`face` or `split`) keeps the windows' paths the face analysis made, each re-made around the same points for the new shape, so a `face` video can become 1:1 or 4:5 without being analysed again; the other face mode is planned afresh from the faces that analysis found (`face` to `split`, `split` to `face`, or either again after `center` or `fit`). A video never looked at for faces (created without `face` or `split`) is looked at by its next render, charged with the render's request at the create's price (per started minute of source): until then `framing` is null and no window can be moved. The video's `width` and `height` follow. Otherwise free: nothing is looked at again."
    }),
    framing: Schema.optional(Schema.Struct({
      paths: Schema.Array(Schema.Array(CameraKey).pipe(Schema.maxItems(MAX_CAMERA_KEYS))).pipe(Schema.maxItems(2)).annotations({
        description: "One path per window, in the framing's order (as the captions resource lists them)."
      })
    })).annotations({
      description:
        "A reframed video's window paths, replacing the planned ones: move a key, or add one where a window should be at a time (the path passes through every key). Each window stays inside the source; the shape, mode and window size stay as planned."
    }),
    revision: Schema.optional(Schema.Int.pipe(Schema.nonNegative())).annotations({
      description: "The revision the edit was made on; a newer one saved since makes this a 409."
    })
  }),
  output: VideoCaptions,
  errors: ["NotFound", "Conflict", "InvalidInput"],
  http: { method: "PATCH", path: "/v1/videos/:id/captions" },
  access: "workspace",
  tool: "edit_captions",
  cli: "edit-captions",
  idempotent: false,
  handle: ({ adjustments, cuts, emoji, emphasis, framing, hook, id, lineStarts, platform, reframe, revision, templateId, trim, words }) =>
    Effect.gen(function*() {
      yield* Effect.annotateCurrentSpan("videoId", id)
      const workspace = yield* CurrentWorkspace
      const videos = yield* VideoStore
      // Retyped words are aligned to the audio first, outside the transaction: it takes ffmpeg and a
      // recogniser. The times apply below only to the same words (an edit in between is a 409 with `revision`).
      const retimed = words === undefined ? undefined : yield* findVideo(id).pipe(
        Effect.flatMap((video) =>
          editRefusal(video) !== null
            ? Effect.succeed(undefined)
            : Effect.flatMap(videos.getWords(id), (stored) =>
              realignRetyped(video, Option.getOrElse(stored, () => []), splitSpacedWords(words, null).words))
        )
      )
      yield* (yield* Transactor).atomically(Effect.gen(function*() {
        const video = yield* videos.getForUpdate(id).pipe(
          Effect.map(Option.filter((v) => v.workspaceId === workspace.id)),
          Effect.flatMap(Option.match({ onNone: () => new NotFound({ resource: "video", id }), onSome: Effect.succeed }))
        )
        const refusal = editRefusal(video)
        if (refusal !== null) return yield* new Conflict({ message: `The captions cannot be edited now: ${refusal}.` })
        const edits = Option.getOrElse(yield* videos.getCaptionEdits(id), () => NO_EDITS)
        if (revision !== undefined && revision !== edits.revision) {
          return yield* new Conflict({
            message: `The captions were changed since revision ${revision} (now ${edits.revision}): load them again and redo the edit.`
          })
        }
        const stored = Option.getOrElse(yield* videos.getWords(id), () => [])
        // Line starts count words: they carry over only while the words they count stay the same words.
        const starts = lineStarts !== undefined ? lineStarts : words === undefined || words.length === stored.length ? edits.lineStarts : null
        const spread = words === undefined ? { words: stored, lineStarts: starts } : splitSpacedWords(words, starts)
        const split = retimed !== undefined && retimed.length === spread.words.length ? { ...spread, words: retimed } : spread
        if (words !== undefined) yield* Either.mapLeft(checkWords(split.words, video.durationSeconds ?? Infinity), refuse)
        const checkedStarts = yield* Either.mapLeft(checkLineStarts(split.lineStarts, split.words.length), refuse)
        if ((trim !== undefined || cuts !== undefined) && video.kind !== "caption") {
          return yield* refuse({ field: trim === undefined ? "cuts" : "trim", message: "Only a caption video's speech is trimmed: its source is a person speaking." })
        }
        const duration = video.durationSeconds ?? 0
        const trimming = trim === undefined ? edits.trim : trim
        const nextCuts = cuts !== undefined
          ? yield* Either.mapLeft(checkCuts(cuts, duration), refuse)
          : trim !== undefined
          ? (trim === null ? [] : planCuts(split.words, duration, trim))
          : edits.cuts
        if (reframe !== undefined && video.kind !== "caption") {
          return yield* refuse({ field: "reframe", message: "Only a caption video is reframed: a generated video is made in its shape." })
        }
        // The source's size: the framing's, or the video's own while it is not reframed.
        const source = edits.framing !== null
          ? { width: edits.framing.sourceWidth, height: edits.framing.sourceHeight }
          : { width: video.width ?? 0, height: video.height ?? 0 }
        // The same settings again keep the framing as it is, keys a person placed included.
        const unchanged = reframe === undefined || (reframe === null
          ? edits.reframe === null
          : reframe.aspectRatio === edits.reframe?.aspectRatio && reframe.mode === edits.reframe.mode)
        // What the face analysis found is read only where another face mode is asked: it may be large.
        const analysis = reframe !== undefined && reframe !== null && replansFromFaces(reframe, edits.reframe, edits.framing)
          ? Option.getOrNull(yield* videos.getFaceAnalysis(id))
          : null
        const reshaped = unchanged
          ? edits.framing
          : reframe === null
          ? null
          : reshapeFraming(reframe, edits.reframe, edits.framing, source, analysis)
        const asked = reframe === undefined ? edits.reframe : reframe
        if (framing !== undefined && (reshaped === null || awaitsFaces(asked, reshaped))) {
          return yield* refuse({
            field: "framing",
            message: reshaped === null
              ? "The video is not reframed (or its framing is not planned yet): there are no windows to move."
              : "The windows follow the faces, which the next render looks for (the video was made without looking at them): render it, then move them."
          })
        }
        const nextFraming = framing === undefined || reshaped === null
          ? reshaped
          : yield* Either.mapLeft(checkCameraPaths(reshaped, framing.paths, video.durationSeconds ?? 0), refuse)
        if (templateId !== undefined && templateId !== video.templateId) yield* requireTemplate(workspace.id, templateId)
        const cut = cutSeconds(nextCuts)
        // The video's size is its output's: the new framing's, or the source's when it is no longer reframed.
        const size = unchanged ? {} : nextFraming === null ? source : { width: nextFraming.width, height: nextFraming.height }
        if ((templateId !== undefined && templateId !== video.templateId) || cut !== video.cutSeconds || !unchanged) {
          yield* videos.update({ ...video, templateId: templateId ?? video.templateId, cutSeconds: cut, ...size, updatedAt: yield* nowIso })
        }
        const next: CaptionEdits = {
          revision: edits.revision + 1,
          lineStarts: checkedStarts,
          style: adjustments ?? edits.style,
          hook: hook === undefined ? edits.hook : hook,
          platform: platform ?? edits.platform,
          emphasis: emphasis ?? edits.emphasis,
          emoji: emoji ?? edits.emoji,
          trim: trimming,
          cuts: nextCuts,
          reframe: asked,
          framing: nextFraming
        }
        // A retimed word keeps the emphasis and emoji it was sent with.
        const sent = split.words.map((w, i) => {
          const { emoji: sentEmoji, emphasis: sentEmphasis } = spread.words[i] ?? {}
          return { ...w, ...(sentEmphasis === true ? { emphasis: true } : {}), ...(sentEmoji === undefined ? {} : { emoji: sentEmoji }) }
        })
        const project = { ...video, templateId: templateId ?? video.templateId }
        const emphasised = emphasis === "auto"
          ? yield* chooseEmphasisFor(project, next, sent)
          : emphasis === "off"
          ? withoutEmphasis(sent)
          : sent
        const marked = emoji === "auto" ? yield* chooseEmojiFor(project, next, emphasised) : emoji === "off" ? withoutEmoji(emphasised) : emphasised
        if (words !== undefined || emphasis !== undefined || emoji !== undefined) yield* videos.saveWords(id, marked)
        yield* videos.saveCaptionEdits(id, next)
      }))
      return yield* videoCaptions(id)
    })
})
