// The AI video pipeline up to an editable project: speak the script (charged per started minute),
// cut the narration into scenes at sentence ends, draw one picture per scene, and keep it all in the
// project. Every step saves what it made, so a retried job after a crash picks up where it stopped.
import { Effect, Option, Schema } from "effect"
import { ART_STYLES } from "../../../domain/art-styles.ts"
import { WorkFailed } from "../../../domain/errors.ts"
import { type GeneratedProject, motionOfScene, sceneCountFor } from "../../../domain/generated-project.ts"
import type { BlobStore } from "../../../domain/ports/blob-store.ts"
import type { FileStore } from "../../../domain/ports/file-store.ts"
import { Illustrator } from "../../../domain/ports/illustrator.ts"
import type { Job } from "../../../domain/ports/job-queue.ts"
import type { Ledger } from "../../../domain/ports/ledger.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import type { SpeechEngines } from "../../../domain/ports/speech-engine.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { speechCredits } from "../../../domain/pricing.ts"
import { NARRATION_TAIL_SECONDS, scenesForWords } from "../../../domain/timeline.ts"
import type { VideoRecord } from "../../../domain/video.ts"
import { Done, type JobHandler } from "../../kernel/job-runner.ts"
import { GENERATE_AI_VIDEO } from "../../kernel/job-kinds.ts"
import type { ServiceConfig } from "../../kernel/service-config.ts"
import { applyVideoEvent, failVideo, type VideoEventServices } from "../../kernel/video-events.ts"
import { step } from "../caption-video/generate-captions.ts"
import { chargeWork } from "../credits/charge-work.ts"
import { withScratchDir } from "../media/scratch.ts"
import { storeFile } from "../media/store-file.ts"
import { chooseVoice } from "../speech/voices.ts"

const Payload = Schema.Struct({ videoId: Schema.String })

const workspaceOf = (video: VideoRecord) =>
  Effect.flatMap(WorkspaceStore, (store) => store.get(video.workspaceId)).pipe(Effect.map(Option.getOrThrow))

/** Speaks the script, charges it, and stores the narration and its word times. */
const narrate = (video: VideoRecord, project: GeneratedProject, dir: string) =>
  Effect.gen(function*() {
    const { engine, voice } = yield* chooseVoice(project.voiceId).pipe(
      Effect.mapError((e) => new WorkFailed({ message: `The voice ${project.voiceId} is no longer offered by this server: ${e.message}` }))
    )
    const wav = `${dir}/narration.wav`
    const spoken = yield* engine.speak({ text: project.script, voiceId: voice.id, outputWav: wav })
    yield* chargeWork(video, "speech", speechCredits(spoken.durationSeconds), (required, balance) =>
      `Speaking the script needs ${required} credits; the workspace has ${balance}. Top up credits and create the video again.`)
    yield* (yield* MediaEngine).encodeMp3(wav, `${dir}/narration.mp3`)
    const file = yield* storeFile(yield* workspaceOf(video), { path: `${dir}/narration.mp3`, name: "narration.mp3", contentType: "audio/mpeg" })
    const videos = yield* VideoStore
    yield* videos.saveWords(video.id, spoken.words)
    const narrated = { ...project, narrationFileId: file.id }
    yield* videos.saveProject(video.id, narrated)
    yield* applyVideoEvent(video.id, (at) => ({
      _tag: "SourceProbed",
      facts: { durationSeconds: spoken.durationSeconds + NARRATION_TAIL_SECONDS, width: video.width ?? 0, height: video.height ?? 0 },
      at
    }))
    return narrated
  })

/** One scene per few sentences, timed to the narration. */
const writeScenes = (video: VideoRecord, project: GeneratedProject) =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const words = yield* videos.getWords(video.id).pipe(Effect.map(Option.getOrElse(() => [])))
    const narrationSeconds = (yield* videos.getById(video.id).pipe(Effect.map(Option.getOrThrow))).durationSeconds ?? 0
    const spans = scenesForWords(words, sceneCountFor(narrationSeconds), {
      narrationSeconds: narrationSeconds - NARRATION_TAIL_SECONDS
    })
    if (spans.length === 0) return yield* new WorkFailed({ message: "The narration has no words, so there is nothing to show." })
    const written: GeneratedProject = {
      ...project,
      scenes: spans.map((span, i) => ({
        text: span.words.map((w) => w.text).join(" "),
        startSeconds: span.startSeconds,
        durationSeconds: span.durationSeconds,
        imageFileId: null,
        motion: motionOfScene(i)
      }))
    }
    yield* videos.saveProject(video.id, written)
    return written
  })

/** A picture for every scene that has none yet, saved one by one. */
const drawScenes = (video: VideoRecord, project: GeneratedProject, dir: string) =>
  Effect.gen(function*() {
    const style = ART_STYLES.find((s) => s.id === project.artStyleId)
    if (style === undefined) return yield* new WorkFailed({ message: `The art style ${project.artStyleId} no longer exists.` })
    const illustrator = yield* Illustrator
    const workspace = yield* workspaceOf(video)
    const videos = yield* VideoStore
    let drawn = project
    for (const [i, scene] of project.scenes.entries()) {
      if (scene.imageFileId !== null) continue
      const png = `${dir}/scene-${i}.png`
      yield* illustrator.illustrate({
        prompt: scene.text,
        style,
        seed: project.seed + i,
        width: video.width ?? 1080,
        height: video.height ?? 1920,
        outputPng: png
      })
      const file = yield* storeFile(workspace, { path: png, name: `scene-${i + 1}.png`, contentType: "image/png" })
      drawn = { ...drawn, scenes: drawn.scenes.map((s, k) => (k === i ? { ...s, imageFileId: file.id } : s)) }
      yield* videos.saveProject(video.id, drawn)
    }
    return drawn
  })

export const generateAiVideo = (videoId: string) =>
  withScratchDir(videoId, (dir) =>
    Effect.gen(function*() {
      const videos = yield* VideoStore
      const initial = yield* videos.getById(videoId).pipe(Effect.map(Option.getOrThrow))
      if (initial.status !== "processing" || initial.generated) return
      const saved = yield* videos.getProject(videoId).pipe(Effect.map(Option.getOrThrow))
      const narrated = saved.narrationFileId === null
        ? yield* step(initial, "speaking", narrate(initial, saved, dir))
        : saved
      const written = narrated.scenes.length === 0
        ? yield* step(initial, "writing_scenes", writeScenes(initial, narrated))
        : narrated
      yield* step(initial, "drawing", drawScenes(initial, written, dir))
      // Captions are laid out from the saved words at render time, in the template chosen then.
      yield* step(initial, "building_captions", Effect.void)
      yield* applyVideoEvent(videoId, (at) => ({ _tag: "Generated", at }))
    }))

export const generateAiVideoJob: JobHandler<
  | BlobStore
  | FileStore
  | Illustrator
  | Ledger
  | MediaEngine
  | SpeechEngines
  | VideoStore
  | WorkspaceStore
  | VideoEventServices
  | ServiceConfig
> = {
  kind: GENERATE_AI_VIDEO,
  lane: "media",
  run: (job: Job) =>
    Schema.decodeUnknown(Payload)(job.payload).pipe(
      Effect.orDie,
      Effect.flatMap(({ videoId }) =>
        generateAiVideo(videoId).pipe(Effect.catchTag("WorkFailed", (failure) => failVideo(videoId, failure)))
      ),
      Effect.as(Done)
    ),
  onDead: (job, error) =>
    Schema.decodeUnknown(Payload)(job.payload).pipe(
      Effect.flatMap(({ videoId }) =>
        failVideo(videoId, new WorkFailed({ message: `Generating the video stopped after repeated internal errors (${error.slice(0, 200)}). Credits were refunded; create it again.` }))
      ),
      Effect.orDie
    )
}
