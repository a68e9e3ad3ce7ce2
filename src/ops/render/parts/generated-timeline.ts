// A generated video's project as a timeline the renderer can encode, with its stored files copied to
// the scratch folder: an AI video is one image scene per drawn picture (each fading into the next);
// a gameplay video is one scene of footage (an uploaded clip looped, or a built-in game), under a picture
// or clip in split screen when one was chosen; a chat or a quiz is an animation at the render's frame
// rate, placed over its backdrop (on greenscreen, over green with nothing behind). Chats, quizzes and
// games are drawn while the renderer encodes them.
import { readFile } from "node:fs/promises"
import { Effect, Option } from "effect"
import type { CaptionTrack, TimedWord } from "../../../../domain/captions.ts"
import { chatPlacement } from "../../../../domain/chat-placement.ts"
import type {
  Backdrop,
  ChatVisuals,
  GameplayVisuals,
  GeneratedProject,
  IllustratedVisuals,
  QuizVisuals
} from "../../../../domain/generated-project.ts"
import type { AnimatedFrames } from "../../../../domain/ports/animated-frames.ts"
import { type AnimateRequest, Animator } from "../../../../domain/ports/animator.ts"
import type { TimelineRenderRequest } from "../../../../domain/ports/timeline-renderer.ts"
import { UploadStore } from "../../../../domain/ports/upload-store.ts"
import { gameFootage } from "./game-footage.ts"
import type { RenderOptions } from "../../../../domain/rules.ts"
import type { PlainVisual, Scene, Timeline } from "../../../../domain/timeline.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { localFile } from "../../../shared/media/scratch.ts"

const notGenerated = Effect.dieMessage("the project was rendered before it was generated")

const illustratedScenes = (visuals: IllustratedVisuals, dir: string) =>
  Effect.forEach(visuals.scenes, (scene, i) =>
    scene.imageFileId === null
      ? notGenerated
      : Effect.map(localFile(scene.imageFileId, `${dir}/scene-${i}.png`), (path): Scene => ({
        durationSeconds: scene.durationSeconds,
        visual: { _tag: "Image", path, motion: scene.motion },
        overlays: [],
        transition: i === 0 ? "cut" : "fade"
      })))

/** An upload as a plain visual: a still holds, a clip or gif loops. */
const uploadVisual = (workspaceId: string, key: string, path: string) =>
  Effect.gen(function*() {
    const upload = yield* (yield* UploadStore).get(workspaceId, key).pipe(Effect.map(Option.getOrThrow))
    const local = yield* localFile(key, path)
    const visual: PlainVisual = upload.kind === "image"
      ? { _tag: "Image", path: local, motion: "none" }
      : { _tag: "Video", path: local, loop: true, startSeconds: 0 }
    return visual
  })

/** The animations a timeline plays, by the names its scenes give them; filled as the scenes are made. */
type Animations = Map<string, AnimatedFrames>

const CHAT = "chat"
const QUIZ = "quiz"
const FOOTAGE = "footage"

/** What a backdrop or gameplay footage shows: a colour, an upload, or a built-in game drawn while the render runs. */
const backdropVisual = (video: VideoRecord, seed: number, backdrop: Backdrop, animations: Animations, dir: string) =>
  Effect.gen(function*() {
    switch (backdrop._tag) {
      case "Colour":
        return { _tag: "Colour", hex: backdrop.hex } satisfies PlainVisual
      case "Upload":
        return yield* uploadVisual(video.workspaceId, backdrop.key, `${dir}/backdrop`)
      case "Game":
        animations.set(FOOTAGE, yield* gameFootage(video, seed, backdrop.game))
        return { _tag: "Animation", animation: FOOTAGE } satisfies PlainVisual
    }
  })

const gameplayScenes = (video: VideoRecord, project: GeneratedProject, visuals: GameplayVisuals, animations: Animations, dir: string) =>
  Effect.gen(function*() {
    const footage = yield* backdropVisual(video, project.seed, visuals.footage, animations, dir)
    const top = visuals.top === null ? null : yield* uploadVisual(video.workspaceId, visuals.top, `${dir}/top`)
    const scene: Scene = {
      durationSeconds: video.durationSeconds ?? 0,
      visual: top === null ? footage : { _tag: "Split", top, bottom: footage },
      overlays: []
    }
    return [scene]
  })

/** The bytes of every picture a conversation names (avatars, sent pictures), by key. */
const chatPictures = (visuals: ChatVisuals, dir: string) =>
  Effect.forEach([
    ...visuals.conversation.participants.flatMap((p) => (p.avatarKey === undefined ? [] : [p.avatarKey])),
    ...visuals.conversation.messages.flatMap((m) => (m.imageKey === undefined ? [] : [m.imageKey]))
  ], (key, i) =>
    Effect.flatMap(localFile(key, `${dir}/picture-${i}`), (path) =>
      Effect.promise(() => readFile(path)).pipe(Effect.map((bytes) => [key, new Uint8Array(bytes)] as const)))).pipe(
    Effect.map((pairs) => new Map(pairs))
  )

/** Behind a chat card with no backdrop (a wide or square frame): a dark surround, like a phone on a desk. */
const CARD_SURROUND = "#111114"
const GREEN: PlainVisual = { _tag: "Colour", hex: "#00FF00" }

type Frame = Pick<AnimateRequest, "width" | "height" | "frameRate" | "durationSeconds">

const chatScene = (video: VideoRecord, project: GeneratedProject, visuals: ChatVisuals, frame: Frame, greenscreen: boolean, animations: Animations, dir: string) =>
  Effect.gen(function*() {
    if (visuals.schedule === null) return yield* notGenerated
    const placement = chatPlacement(frame.width, frame.height, visuals.backdrop !== null, visuals.split)
    const { box } = placement
    animations.set(
      CHAT,
      yield* (yield* Animator).animate({
        animation: {
          _tag: "Chat",
          conversation: visuals.conversation,
          theme: visuals.theme,
          schedule: visuals.schedule,
          images: yield* chatPictures(visuals, dir)
        },
        ...frame,
        width: box.width,
        height: box.height,
        fill: greenscreen ? "transparent" : "theme"
      })
    )
    const chat: PlainVisual = { _tag: "Animation", animation: CHAT }
    const overlay = { _tag: "Animation", animation: CHAT, x: box.x / frame.width, y: box.y / frame.height } as const
    const scene = (visual: Scene["visual"], overlays: Scene["overlays"]): Scene => ({
      durationSeconds: frame.durationSeconds,
      visual,
      overlays
    })
    if (greenscreen) return scene(GREEN, [overlay])
    const backdrop = visuals.backdrop === null
      ? { _tag: "Colour", hex: CARD_SURROUND } satisfies PlainVisual
      : yield* backdropVisual(video, project.seed, visuals.backdrop, animations, dir)
    switch (placement._tag) {
      case "Full":
        return scene(chat, [])
      case "Split":
        return scene({ _tag: "Split", top: chat, bottom: backdrop }, [])
      case "Card":
        return scene(backdrop, [overlay])
    }
  })

/** A quiz fills the frame: drawn over its own colour, or with a clear background over a picture, footage or green. */
const quizScene = (video: VideoRecord, project: GeneratedProject, visuals: QuizVisuals, frame: Frame, greenscreen: boolean, animations: Animations, dir: string) =>
  Effect.gen(function*() {
    if (visuals.schedule === null) return yield* notGenerated
    const { backdrop } = visuals
    const fill: AnimateRequest["fill"] = greenscreen || (backdrop !== null && backdrop._tag !== "Colour")
      ? "transparent"
      : backdrop === null
      ? "theme"
      : { colour: backdrop.hex }
    animations.set(
      QUIZ,
      yield* (yield* Animator).animate({
        animation: { _tag: "Quiz", quiz: visuals.quiz, theme: visuals.theme, schedule: visuals.schedule },
        ...frame,
        fill
      })
    )
    const overlay = { _tag: "Animation", animation: QUIZ, x: 0, y: 0 } as const
    const scene = (visual: Scene["visual"], overlays: Scene["overlays"]): Scene => ({
      durationSeconds: frame.durationSeconds,
      visual,
      overlays
    })
    if (greenscreen) return scene(GREEN, [overlay])
    if (fill !== "transparent" || backdrop === null) return scene({ _tag: "Animation", animation: QUIZ }, [])
    return scene(yield* backdropVisual(video, project.seed, backdrop, animations, dir), [overlay])
  })

const scenesOf = (video: VideoRecord, project: GeneratedProject, frame: Frame, greenscreen: boolean, animations: Animations, dir: string) => {
  const { visuals } = project
  switch (visuals._tag) {
    case "Illustrated":
      return illustratedScenes(visuals, dir)
    case "Gameplay":
      return gameplayScenes(video, project, visuals, animations, dir)
    case "Chat":
      return Effect.map(chatScene(video, project, visuals, frame, greenscreen, animations, dir), (scene) => [scene])
    case "Quiz":
      return Effect.map(quizScene(video, project, visuals, frame, greenscreen, animations, dir), (scene) => [scene])
  }
}

export const generatedTimeline = (input: {
  readonly video: VideoRecord
  readonly project: GeneratedProject
  readonly words: ReadonlyArray<TimedWord>
  readonly captions: CaptionTrack
  readonly options: RenderOptions
  readonly dir: string
}) =>
  Effect.gen(function*() {
    const { dir, project, video } = input
    if (project.narrationFileId === null) return yield* notGenerated
    const narration = yield* localFile(project.narrationFileId, `${dir}/narration.mp3`)
    const frame: Frame = {
      width: video.width ?? 1080,
      height: video.height ?? 1920,
      frameRate: input.options.frameRate,
      durationSeconds: video.durationSeconds ?? 0
    }
    const greenscreen = input.options.format === "greenscreen"
    const animations: Animations = new Map()
    const scenes = yield* scenesOf(video, project, frame, greenscreen, animations, dir)
    const timeline: Timeline = {
      width: frame.width,
      height: frame.height,
      frameRate: input.options.frameRate,
      format: input.options.format,
      background: "#000000",
      scenes,
      narration: { path: narration, words: input.words },
      captions: "captions" in project.visuals && !project.visuals.captions ? null : input.captions,
      music: null
    }
    return { timeline, animations } satisfies Pick<TimelineRenderRequest, "timeline" | "animations">
  })
