// The caption pipeline up to timed captions: fetch and store the source, probe it, (with a reframe,
// look for faces and plan the windows, beside the rest) extract the audio, transcribe (unless the words
// came with the video, as a clip's do), save the words.
// Each step is recorded in the video's `step`, and each is safe to run again when a crashed job is retried.
import { Deferred, Effect, Fiber, Option } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { Transcriber } from "../../../domain/ports/transcriber.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { captionCredits } from "../../../domain/pricing.ts"
import { REFRAMED_SIZES } from "../../../domain/reframe.ts"
import { checkSource } from "../../../domain/rules.ts"
import type { VideoRecord } from "../../../domain/video.ts"
import { Done, handle } from "../../kernel/job.ts"
import { recordRealtimeFactor, transcriptionRealtimeFactor } from "../../kernel/metrics.ts"
import { GenerateCaptions } from "../../kernel/job-catalogue.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { chargeWork } from "../../shared/credits/charge-work.ts"
import { downloadSource } from "../../shared/media/download-source.ts"
import { markGenerated } from "../videos/parts/mark-words.ts"
import { localSource, withScratchDir } from "../../shared/media/scratch.ts"
import { transcriptionHints } from "../../shared/media/transcription-hints.ts"
import { alignTranscript } from "./parts/align-transcript.ts"
import { planReframe } from "../../shared/media/plan-reframe.ts"
import { planTrim } from "./parts/plan-trim.ts"

const ensureStoredSource = (video: VideoRecord, dir: string) =>
  Effect.gen(function*() {
    if (video.sourceFileId !== null || video.sourceUrl === null) return
    const file = yield* downloadSource(video.workspaceId, video.sourceUrl, dir)
    yield* videoWork.apply(video.id, (at) => ({ _tag: "SourceStored", fileId: file.id, at }))
  })

const chargeCaptions = (video: VideoRecord, seconds: number) =>
  chargeWork(video, "captions", captionCredits(seconds), "Timing the captions was not charged; top up credits and create the video again.")

/**
 * Looking for faces (a decode of the picture) runs beside the audio's extraction and transcription,
 * which read only the sound. `step` records its start before the next step's (steps only move
 * forward): the fork goes on once the start is recorded, or fails with the step.
 */
const besideTheSound = <E, R>(step: (started: Effect.Effect<void>) => Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    const fiber = yield* Effect.fork(step(Deferred.succeed(started, undefined)))
    yield* Effect.raceFirst(Deferred.await(started), Fiber.join(fiber))
    return fiber
  })

/** What is said, heard by the transcriber (charged as captions) and, with a transcript, aligned to it. */
const transcribe = (initial: VideoRecord, video: VideoRecord, wav: string, durationSeconds: number) =>
  Effect.gen(function*() {
    const hints = yield* transcriptionHints(video.workspaceId, video.language)
    const transcriber = yield* Transcriber
    const heard = yield* videoWork.step(
      initial,
      "transcribing",
      Effect.annotateCurrentSpan({ "media.duration_seconds": durationSeconds, "transcriber.engine": transcriber.name }).pipe(
        Effect.zipRight(chargeCaptions(video, durationSeconds)),
        Effect.zipRight(transcriber.transcribe(wav, hints).pipe(Effect.timed)),
        Effect.tap(([took]) => recordRealtimeFactor(transcriptionRealtimeFactor, { engine: transcriber.name }, took, durationSeconds)),
        Effect.map(([, words]) => words)
      )
    )
    if (heard.length === 0) {
      return yield* new WorkFailed({
        message: "No speech was recognised in the source's audio, so there is nothing to caption."
      })
    }
    return video.transcript === null
      ? heard
      : yield* videoWork.step(initial, "aligning", alignTranscript(video.transcript, wav, heard, durationSeconds))
  })

export const generateCaptions = (videoId: string) =>
  withScratchDir(videoId, (dir) =>
    Effect.gen(function*() {
      const videos = yield* VideoStore
      const load = videos.getById(videoId).pipe(Effect.map(Option.getOrThrow))
      const initial = yield* load
      if (initial.status !== "processing" || initial.generated) return
      yield* videoWork.step(initial, "fetching_source", ensureStoredSource(initial, dir))
      const video = yield* load
      const media = yield* MediaEngine
      const sourcePath = yield* localSource(video, dir)
      const facts = yield* videoWork.step(initial, "probing", media.probe(sourcePath))
      const verdict = checkSource(facts)
      if (!verdict.ok) return yield* new WorkFailed({ message: verdict.reason })
      const reframe = Option.getOrUndefined(yield* videos.getCaptionEdits(videoId))?.reframe ?? null
      // The video's size is its output's: a reframed one's is the shape asked.
      const size = reframe === null ? { width: facts.width, height: facts.height } : REFRAMED_SIZES[reframe.aspectRatio]
      yield* videoWork.apply(videoId, (at) => ({ _tag: "SourceProbed", facts: { durationSeconds: facts.durationSeconds, ...size }, at }))
      const reframing = reframe === null
        ? null
        : yield* besideTheSound((started) => videoWork.step(initial, "reframing", Effect.zipRight(started, planReframe(video, sourcePath, facts, reframe))))
      const wav = `${dir}/audio.wav`
      yield* videoWork.step(initial, "extracting_audio", media.extractAudio(sourcePath, wav))
      // Words saved already came with the video (a clip of a talk transcribed once) or from a run that crashed after timing them.
      const saved = Option.getOrElse(yield* videos.getWords(videoId), () => [])
      const words = saved.length > 0 ? saved : yield* transcribe(initial, video, wav, facts.durationSeconds)
      yield* videoWork.step(
        initial,
        "building_captions",
        markGenerated(video, words, wav).pipe(
          Effect.tap((marked) => videos.saveWords(videoId, marked)),
          Effect.flatMap((marked) => planTrim(videoId, facts.durationSeconds, marked))
        )
      )
      if (reframing !== null) yield* Fiber.join(reframing)
      yield* videoWork.apply(videoId, (at) => ({ _tag: "Generated", at }))
    }))

export const generateCaptionsJob = handle(GenerateCaptions, {
  run: ({ videoId }) =>
    generateCaptions(videoId).pipe(Effect.catchTag("WorkFailed", (failure) => videoWork.fail(videoId, failure)), Effect.as(Done)),
  onDead: ({ videoId }, error) =>
    videoWork.fail(videoId, new WorkFailed({ message: `Captioning stopped after repeated internal errors (${error.slice(0, 200)}). Try again; if it keeps failing, contact the operator.` }))
})
