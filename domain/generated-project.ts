// What a generated video (AI, gameplay, fake-text, quiz) is made of, kept so it can be rendered, or
// rendered again, later: the narration (for a chat or a quiz, every voice and sound mixed into one
// track), and its pictures (one drawn per scene, gameplay footage, a chat or quiz cards to animate).
// Files are referenced by id; the timeline the renderer needs is built from this and the caption
// template at render time.
import { Schema } from "effect"
import type { CaptionStyle } from "./captions.ts"
import { ChatSchedule } from "./chat-schedule.ts"
import { ChatThemeId } from "./chat-themes.ts"
import { ChatMessage, Participant } from "./conversation.ts"
import { GameKind } from "./gameplay.ts"
import { HexColour } from "./hex-colour.ts"
import { QuizContent, QuizSchedule, QuizThemeId } from "./quiz.ts"
import { Motion } from "./timeline.ts"
import type { VideoKind } from "./video.ts"

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

/** An AI video's pictures: one drawn per scene, in an art style. */
export const IllustratedVisuals = Schema.TaggedStruct("Illustrated", {
  artStyleId: Schema.String,
  scenes: Schema.Array(ProjectScene)
})
export type IllustratedVisuals = typeof IllustratedVisuals.Type

/** Built-in footage: a mini-game played with the project's seed, made to the narration's length. */
export const GameFootage = Schema.TaggedStruct("Game", { game: GameKind })
/** A clip or gif the workspace uploaded (its key), looped to the narration's length. */
export const UploadedFootage = Schema.TaggedStruct("Upload", { key: Schema.String })

/**
 * A built-in game's footage as stored by earlier versions, which made it before the render. It is now drawn
 * while the render encodes it, and never stored; an older project keeps the id so deleting the video removes the file.
 */
const StoredFootage = Schema.optional(Schema.NullOr(Schema.String))

/** A gameplay video's picture: footage under the narration, with an optional picture or clip above it. */
export const GameplayVisuals = Schema.TaggedStruct("Gameplay", {
  footage: Schema.Union(GameFootage, UploadedFootage),
  /** An upload's key shown in the top half (split screen); null = footage fills the frame. */
  top: Schema.NullOr(Schema.String),
  footageFileId: StoredFootage
})
export type GameplayVisuals = typeof GameplayVisuals.Type

/** What a chat or quiz is shown over: a colour, an upload (picture, gif or clip), or a built-in game played for the video's length. */
export const Backdrop = Schema.Union(
  Schema.TaggedStruct("Colour", { hex: HexColour }),
  UploadedFootage,
  GameFootage
)
export type Backdrop = typeof Backdrop.Type

/** The fields chat and quiz videos share: what they are shown over, and whether they carry captions. */
const AnimatedFields = {
  /** Null: the chat or quiz theme's own background fills the frame. */
  backdrop: Schema.NullOr(Backdrop),
  footageFileId: StoredFootage,
  captions: Schema.Boolean
}

/** A fake-text video: the conversation, played in a chat app's look; timed once its messages are spoken. */
export const ChatVisuals = Schema.TaggedStruct("Chat", {
  conversation: Schema.Struct({ participants: Schema.Array(Participant), messages: Schema.Array(ChatMessage) }),
  theme: ChatThemeId,
  /** Each participant's voice, by participant id, chosen at create. */
  voices: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** Chat in the top half, the backdrop in the bottom half (split screen); else the chat floats over the backdrop. */
  split: Schema.Boolean,
  schedule: Schema.NullOr(ChatSchedule),
  ...AnimatedFields
})
export type ChatVisuals = typeof ChatVisuals.Type

/** A quiz video: its cards, timed once everything on them is spoken. */
export const QuizVisuals = Schema.TaggedStruct("Quiz", {
  quiz: QuizContent,
  theme: QuizThemeId,
  schedule: Schema.NullOr(QuizSchedule),
  ...AnimatedFields
})
export type QuizVisuals = typeof QuizVisuals.Type

/**
 * What the editor previews captions over for a generated video: its timeline rendered once, without
 * captions (captions never change the rest of the picture), or why that failed.
 */
export const EditorPicture = Schema.Union(
  Schema.TaggedStruct("Ready", { fileId: Schema.String }),
  Schema.TaggedStruct("Failed", { error: Schema.String })
)
export type EditorPicture = typeof EditorPicture.Type

export const GeneratedProject = Schema.Struct({
  script: Schema.String,
  voiceId: Schema.String,
  aspectRatio: AspectRatio,
  /** Keeps a video's pictures the same when a crashed job makes them again. */
  seed: Schema.Int,
  narrationFileId: Schema.NullOr(Schema.String),
  visuals: Schema.Union(IllustratedVisuals, GameplayVisuals, ChatVisuals, QuizVisuals),
  editorPicture: Schema.optional(EditorPicture)
})
export type GeneratedProject = typeof GeneratedProject.Type

/** The files the project made for its video and renders from: the narration, the drawn pictures (never uploads, which are the workspace's). */
export const projectFileIds = (project: GeneratedProject): ReadonlyArray<string> => {
  const pictures = project.visuals._tag === "Illustrated" ? project.visuals.scenes.map((scene) => scene.imageFileId) : []
  return [project.narrationFileId, ...pictures].filter((id): id is string => id !== null)
}

/** Every file the project made, footage an earlier version stored and the editor's picture included: what deleting the video's media removes. */
export const projectMediaFileIds = (project: GeneratedProject): ReadonlyArray<string> => [
  ...projectFileIds(project),
  ...(project.visuals._tag !== "Illustrated" && typeof project.visuals.footageFileId === "string" ? [project.visuals.footageFileId] : []),
  ...(project.editorPicture?._tag === "Ready" ? [project.editorPicture.fileId] : [])
]

/** The workspace's uploads the project's pictures are made of (their keys are their files' ids). */
export const projectUploadKeys = (project: GeneratedProject): ReadonlyArray<string> => {
  const { visuals } = project
  switch (visuals._tag) {
    case "Illustrated":
      return []
    case "Gameplay":
      return [...(visuals.footage._tag === "Upload" ? [visuals.footage.key] : []), ...(visuals.top === null ? [] : [visuals.top])]
    case "Chat":
    case "Quiz": {
      const backdrop = visuals.backdrop?._tag === "Upload" ? [visuals.backdrop.key] : []
      if (visuals._tag === "Quiz") return backdrop
      const { participants, messages } = visuals.conversation
      return [
        ...backdrop,
        ...participants.flatMap((p) => (p.avatarKey === undefined ? [] : [p.avatarKey])),
        ...messages.flatMap((m) => (m.imageKey === undefined ? [] : [m.imageKey]))
      ]
    }
  }
}

/** About one picture every six seconds of narration, between 1 and 12. */
export const sceneCountFor = (narrationSeconds: number): number => Math.min(12, Math.max(1, Math.round(narrationSeconds / 6)))

/** Alternating Ken Burns moves, so consecutive scenes never move the same way. */
const MOTIONS = ["zoom-in", "pan-left", "zoom-out", "pan-right"] as const
export const motionOfScene = (index: number): Motion => MOTIONS[index % MOTIONS.length]!

/** Gameplay captions sit in the middle of the frame, at least this large (a share of its height). */
const GAMEPLAY_FONT_RATIO = 0.06

/**
 * The caption style a video of this kind is rendered with: gameplay videos show the template's
 * captions big and centred, with fewer characters a line so the larger words still fit.
 */
export const captionStyleFor = (kind: VideoKind, style: CaptionStyle): CaptionStyle => {
  if (kind !== "gameplay") return style
  const fontSizeRatio = Math.max(style.fontSizeRatio, GAMEPLAY_FONT_RATIO)
  return {
    ...style,
    position: "middle",
    fontSizeRatio,
    maxCharsPerLine: Math.max(8, Math.floor((style.maxCharsPerLine * style.fontSizeRatio) / fontSizeRatio))
  }
}
