// A video as a timeline: scenes (a picture each, with overlays) one after the other, narration,
// captions and music over the whole. Plain data, so it can be stored as JSON and rendered later.
import { Schema } from "effect"
import { CaptionPosition, CaptionTrack, endsSentence, TimedWord } from "./captions.ts"
import { HexColour } from "./hex-colour.ts"
import { FrameRate, RenderFormat } from "./rules.ts"

/** Output sizes by aspect ratio. */
export const ASPECT_SIZES = {
  "9:16": { width: 1080, height: 1920 },
  "16:9": { width: 1920, height: 1080 },
  "1:1": { width: 1080, height: 1080 }
} as const
export type AspectRatio = keyof typeof ASPECT_SIZES

export const Motion = Schema.Literal("zoom-in", "zoom-out", "pan-left", "pan-right", "none").annotations({
  description: "Ken Burns movement over a still picture: `pan-left` slides the picture to the left, `pan-right` to the right."
})
export type Motion = typeof Motion.Type

export const ImageVisual = Schema.TaggedStruct("Image", {
  path: Schema.String,
  motion: Motion
}).annotations({ identifier: "ImageVisual", description: "A still picture, cover-cropped to the frame." })

export const VideoVisual = Schema.TaggedStruct("Video", {
  path: Schema.String,
  loop: Schema.Boolean.annotations({ description: "Play again from the start when it ends; otherwise its last frame holds." }),
  startSeconds: Schema.Number.pipe(Schema.nonNegative()).annotations({ description: "Where in the clip the scene starts." })
}).annotations({ identifier: "VideoVisual", description: "A clip (its sound is not used), cover-cropped to the frame." })

export const ColourVisual = Schema.TaggedStruct("Colour", { hex: HexColour }).annotations({ identifier: "ColourVisual" })

export const AnimationVisual = Schema.TaggedStruct("Animation", {
  animation: Schema.String.annotations({ description: "The name of one of the render request's animations." })
}).annotations({
  identifier: "AnimationVisual",
  description: "Pictures the service draws while the render runs (a chat, quiz cards, a game), played in time; drawn at the size they fill (a game smaller, in the same shape), so nothing is cropped."
})

/** The pictures a frame (or half of one) can show. */
export const PlainVisual = Schema.Union(ImageVisual, VideoVisual, ColourVisual, AnimationVisual)
export type PlainVisual = typeof PlainVisual.Type

/** Picture above gameplay: each half cover-cropped on its own. Halves are plain, so a split does not nest. */
export const SplitVisual = Schema.TaggedStruct("Split", { top: PlainVisual, bottom: PlainVisual }).annotations({
  identifier: "SplitVisual"
})

export const Visual = Schema.Union(ImageVisual, VideoVisual, ColourVisual, AnimationVisual, SplitVisual)
export type Visual = typeof Visual.Type

export const TextOverlay = Schema.TaggedStruct("Text", {
  text: Schema.String.pipe(Schema.minLength(1)),
  position: CaptionPosition,
  fontSizeRatio: Schema.Number.pipe(Schema.between(0.02, 0.12)).annotations({ description: "Font size / frame height." }),
  color: HexColour
}).annotations({ identifier: "TextOverlay", description: "Text centred across the frame for the whole scene." })
export type TextOverlay = typeof TextOverlay.Type

/** Placed in fractions of the frame, so an overlay fits every output size. */
export const ImageOverlay = Schema.TaggedStruct("Image", {
  path: Schema.String,
  x: Schema.Number.pipe(Schema.between(0, 1)).annotations({ description: "Left edge / frame width." }),
  y: Schema.Number.pipe(Schema.between(0, 1)).annotations({ description: "Top edge / frame height." }),
  width: Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(1)).annotations({
    description: "Width / frame width; the height keeps the picture's aspect."
  })
}).annotations({ identifier: "ImageOverlay", description: "A picture (transparency kept) over the whole scene." })
export type ImageOverlay = typeof ImageOverlay.Type

/** Like ImageOverlay, but an animation: its transparent parts show the scene under it. */
export const AnimationOverlay = Schema.TaggedStruct("Animation", {
  animation: Schema.String.annotations({ description: "The name of one of the render request's animations." }),
  x: Schema.Number.pipe(Schema.between(0, 1)).annotations({ description: "Left edge / frame width." }),
  y: Schema.Number.pipe(Schema.between(0, 1)).annotations({ description: "Top edge / frame height." })
}).annotations({ identifier: "AnimationOverlay", description: "Drawn pictures (transparency kept) over the scene, at the size they were drawn." })
export type AnimationOverlay = typeof AnimationOverlay.Type

export const Overlay = Schema.Union(TextOverlay, ImageOverlay, AnimationOverlay)
export type Overlay = typeof Overlay.Type

export const Transition = Schema.Literal("cut", "fade").annotations({
  description: "How the scene follows the one before it; ignored on the first scene."
})
export type Transition = typeof Transition.Type

export const MIN_SCENE_SECONDS = 0.1

export const Scene = Schema.Struct({
  durationSeconds: Schema.Number.pipe(Schema.greaterThanOrEqualTo(MIN_SCENE_SECONDS)),
  visual: Visual,
  overlays: Schema.Array(Overlay),
  transition: Schema.optional(Transition)
}).annotations({ identifier: "Scene" })
export type Scene = typeof Scene.Type

const EvenPixels = Schema.Int.pipe(
  Schema.positive(),
  Schema.filter((n) => n % 2 === 0, { message: () => "H.264 in 4:2:0 needs an even number of pixels" })
)

export const Timeline = Schema.Struct({
  width: EvenPixels,
  height: EvenPixels,
  frameRate: FrameRate,
  format: RenderFormat,
  background: HexColour.annotations({ description: "Shown through the transparent parts of still pictures." }),
  scenes: Schema.Array(Scene).pipe(Schema.minItems(1)),
  narration: Schema.NullOr(Schema.Struct({ path: Schema.String, words: Schema.Array(TimedWord) })),
  captions: Schema.NullOr(CaptionTrack),
  music: Schema.NullOr(
    Schema.Struct({
      path: Schema.String,
      volume: Schema.Number.pipe(Schema.between(0, 2)).annotations({ description: "Gain under the narration; 1 = as recorded." })
    })
  )
}).annotations({ identifier: "Timeline", description: "Scenes in order; the video lasts as long as they do together." })
export type Timeline = typeof Timeline.Type

export const timelineDuration = (timeline: Timeline): number =>
  timeline.scenes.reduce((sum, scene) => sum + scene.durationSeconds, 0)

/** Silence after the last word, so the video does not stop on it. */
export const NARRATION_TAIL_SECONDS = 0.5

/** A stretch of the narration that one scene covers. */
export interface NarrationSpan {
  readonly startSeconds: number
  readonly durationSeconds: number
  readonly words: ReadonlyArray<TimedWord>
}


const sentencesOf = (words: ReadonlyArray<TimedWord>): ReadonlyArray<ReadonlyArray<TimedWord>> => {
  const sentences: Array<Array<TimedWord>> = [[]]
  words.forEach((word, i) => {
    sentences[sentences.length - 1]!.push(word)
    if (endsSentence(word.text) && i < words.length - 1) sentences.push([])
  })
  return sentences
}

/**
 * Splits narration into at most `sceneCount` scenes, cutting only between sentences, each cut as
 * close as it can be to an equal share of the time. A scene starts when its first sentence does
 * (the first at 0) and lasts until the next begins; the last ends `tailSeconds` after the narration
 * (its last word, or `narrationSeconds` when the audio runs longer), so the scenes cover it exactly.
 * Fewer sentences than scenes gives one scene a sentence; no words gives no scenes.
 */
export const scenesForWords = (
  words: ReadonlyArray<TimedWord>,
  sceneCount: number,
  options: { readonly narrationSeconds?: number; readonly tailSeconds?: number } = {}
): ReadonlyArray<NarrationSpan> => {
  if (words.length === 0 || sceneCount < 1) return []
  const sentences = sentencesOf(words)
  const count = Math.min(Math.floor(sceneCount), sentences.length)
  const end = Math.max(options.narrationSeconds ?? 0, words[words.length - 1]!.end) + (options.tailSeconds ?? NARRATION_TAIL_SECONDS)
  const startOf = (sentence: number): number => (sentence === 0 ? 0 : sentences[sentence]![0]!.start)
  // firsts[i] = index of scene i's first sentence; each cut leaves at least one sentence for every later scene.
  const firsts = [0]
  for (let scene = 1; scene < count; scene++) {
    const target = (end * scene) / count
    let best = firsts[scene - 1]! + 1
    for (let s = best + 1; s <= sentences.length - (count - scene); s++) {
      if (Math.abs(startOf(s) - target) < Math.abs(startOf(best) - target)) best = s
    }
    firsts.push(best)
  }
  return firsts.map((first, scene) => {
    const next = firsts[scene + 1]
    const startSeconds = startOf(first)
    const stop = next === undefined ? end : startOf(next)
    return {
      startSeconds,
      durationSeconds: stop - startSeconds,
      words: sentences.slice(first, next ?? sentences.length).flat()
    }
  })
}
