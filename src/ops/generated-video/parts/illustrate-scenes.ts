// An AI video's pictures: the narration cut into scenes at sentence ends, then one picture drawn per
// scene in the project's art style. Each drawn picture is saved at once, so a retried job draws only
// what is missing.
import { Effect, Option } from "effect"
import { ART_STYLES } from "../../../../domain/art-styles.ts"
import { WorkFailed } from "../../../../domain/errors.ts"
import { type GeneratedProject, type IllustratedVisuals, motionOfScene, sceneCountFor } from "../../../../domain/generated-project.ts"
import { Illustrator } from "../../../../domain/ports/illustrator.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { NARRATION_TAIL_SECONDS, scenesForWords } from "../../../../domain/timeline.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { storeFile } from "../../../shared/media/store-file.ts"
import { workspaceOf } from "./narrate.ts"

/** One scene per few sentences, timed to the narration. */
export const writeScenes = (video: VideoRecord, project: GeneratedProject, visuals: IllustratedVisuals) =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const words = yield* videos.getWords(video.id).pipe(Effect.map(Option.getOrElse(() => [])))
    const narrationSeconds = (yield* videos.getById(video.id).pipe(Effect.map(Option.getOrThrow))).durationSeconds ?? 0
    const spans = scenesForWords(words, sceneCountFor(narrationSeconds), {
      narrationSeconds: narrationSeconds - NARRATION_TAIL_SECONDS
    })
    if (spans.length === 0) return yield* new WorkFailed({ message: "The narration has no words, so there is nothing to show." })
    const written: IllustratedVisuals = {
      ...visuals,
      scenes: spans.map((span, i) => ({
        text: span.words.map((w) => w.text).join(" "),
        startSeconds: span.startSeconds,
        durationSeconds: span.durationSeconds,
        imageFileId: null,
        motion: motionOfScene(i)
      }))
    }
    yield* videos.saveProject(video.id, { ...project, visuals: written })
    return written
  })

/**
 * A picture for every scene that has none yet, as many at once as the illustrator draws, each saved as
 * soon as it is drawn (one save at a time, so none overwrites another's).
 */
export const drawScenes = (video: VideoRecord, project: GeneratedProject, visuals: IllustratedVisuals, dir: string) =>
  Effect.gen(function*() {
    const style = ART_STYLES.find((s) => s.id === visuals.artStyleId)
    if (style === undefined) return yield* new WorkFailed({ message: `The art style ${visuals.artStyleId} no longer exists.` })
    const illustrator = yield* Illustrator
    const workspace = yield* workspaceOf(video)
    const videos = yield* VideoStore
    const saving = yield* Effect.makeSemaphore(1)
    let drawn = visuals
    const missing = [...visuals.scenes.entries()].filter(([, scene]) => scene.imageFileId === null)
    yield* Effect.forEach(missing, ([i, scene]) =>
      Effect.gen(function*() {
        const png = `${dir}/scene-${i}.png`
        yield* illustrator.illustrate({
          prompt: scene.text,
          style,
          seed: project.seed + i,
          width: video.width ?? 1080,
          height: video.height ?? 1920,
          outputPng: png,
          workspaceId: video.workspaceId
        })
        const file = yield* storeFile(workspace, { path: png, name: `scene-${i + 1}.png`, contentType: "image/png" })
        yield* saving.withPermits(1)(Effect.suspend(() => {
          drawn = { ...drawn, scenes: drawn.scenes.map((s, k) => (k === i ? { ...s, imageFileId: file.id } : s)) }
          return videos.saveProject(video.id, { ...project, visuals: drawn })
        }))
      }), { concurrency: illustrator.concurrency, discard: true })
  })
