// What a generated (AI) video is made of, kept so it can be rendered, or rendered again, later: the
// narration, and one drawn picture per scene. Files are referenced by id; the timeline the renderer
// needs is built from this and the caption template at render time.
import { Schema } from "effect"
import { Motion } from "./timeline.ts"

export const AspectRatio = Schema.Literal("9:16", "16:9", "1:1").annotations({
  description: "Frame shape: `9:16` 1080x1920 (default, for shorts and reels), `16:9` 1920x1080, `1:1` 1080x1080."
})
export type AspectRatio = typeof AspectRatio.Type

export const ProjectScene = Schema.Struct({
  text: Schema.String.annotations({ description: "The sentences the narration says during the scene." }),
  startSeconds: Schema.Number,
  durationSeconds: Schema.Number,
  imageFileId: Schema.NullOr(Schema.String).annotations({ description: "The scene's picture; null until drawn." }),
  motion: Motion
})
export type ProjectScene = typeof ProjectScene.Type

export const GeneratedProject = Schema.Struct({
  script: Schema.String,
  voiceId: Schema.String,
  aspectRatio: AspectRatio,
  artStyleId: Schema.String,
  /** Keeps a video's pictures the same when a crashed job draws them again. */
  seed: Schema.Int,
  narrationFileId: Schema.NullOr(Schema.String),
  scenes: Schema.Array(ProjectScene)
})
export type GeneratedProject = typeof GeneratedProject.Type

/** About one picture every six seconds of narration, between 1 and 12. */
export const sceneCountFor = (narrationSeconds: number): number => Math.min(12, Math.max(1, Math.round(narrationSeconds / 6)))

/** Alternating Ken Burns moves, so consecutive scenes never move the same way. */
const MOTIONS = ["zoom-in", "pan-left", "zoom-out", "pan-right"] as const
export const motionOfScene = (index: number): Motion => MOTIONS[index % MOTIONS.length]!
