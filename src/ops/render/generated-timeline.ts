// A generated video's project as a timeline the renderer can encode, with its stored files copied to
// the scratch folder: an AI video is one image scene per drawn picture (each fading into the next);
// a gameplay video is one scene of looping footage, under a picture or clip in split screen when one
// was chosen.
import { Effect, Option } from "effect"
import type { CaptionPage, CaptionStyle, TimedWord } from "../../../domain/captions.ts"
import type { GameplayVisuals, GeneratedProject, IllustratedVisuals } from "../../../domain/generated-project.ts"
import { UploadStore } from "../../../domain/ports/upload-store.ts"
import type { RenderOptions } from "../../../domain/rules.ts"
import type { PlainVisual, Scene, Timeline } from "../../../domain/timeline.ts"
import type { VideoRecord } from "../../../domain/video.ts"
import { localFile } from "../media/scratch.ts"

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

const gameplayScenes = (video: VideoRecord, visuals: GameplayVisuals, dir: string) =>
  Effect.gen(function*() {
    const { footage: source, footageFileId } = visuals
    const footage: PlainVisual = source._tag === "Upload"
      ? yield* uploadVisual(video.workspaceId, source.key, `${dir}/footage`)
      : footageFileId === null
      ? yield* notGenerated
      : { _tag: "Video", path: yield* localFile(footageFileId, `${dir}/footage.mp4`), loop: true, startSeconds: 0 }
    const top = visuals.top === null ? null : yield* uploadVisual(video.workspaceId, visuals.top, `${dir}/top`)
    const scene: Scene = {
      durationSeconds: video.durationSeconds ?? 0,
      visual: top === null ? footage : { _tag: "Split", top, bottom: footage },
      overlays: []
    }
    return [scene]
  })

export const generatedTimeline = (input: {
  readonly video: VideoRecord
  readonly project: GeneratedProject
  readonly words: ReadonlyArray<TimedWord>
  readonly captions: { readonly pages: ReadonlyArray<CaptionPage>; readonly style: CaptionStyle }
  readonly options: RenderOptions
  readonly dir: string
}) =>
  Effect.gen(function*() {
    const { dir, project, video } = input
    if (project.narrationFileId === null) return yield* notGenerated
    const narration = yield* localFile(project.narrationFileId, `${dir}/narration.mp3`)
    const { visuals } = project
    const scenes = visuals._tag === "Illustrated"
      ? yield* illustratedScenes(visuals, dir)
      : yield* gameplayScenes(video, visuals, dir)
    const timeline: Timeline = {
      width: video.width ?? 1080,
      height: video.height ?? 1920,
      frameRate: input.options.frameRate,
      format: input.options.format,
      background: "#000000",
      scenes,
      narration: { path: narration, words: input.words },
      captions: input.captions,
      music: null
    }
    return timeline
  })
