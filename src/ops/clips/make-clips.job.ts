// Clips from a long spoken video: fetch and store the source, probe it, extract its audio, transcribe it
// once, choose the clips (whole sentences within the bounds, best first), then cut each one's span into a
// file of its own and create its caption video with its words. Each step is recorded in the record's
// `step`; each is safe to run again when a crashed job is retried (charges are posted once, a clip whose
// video exists is not made again).
import { Effect, Option } from "effect"
import { captionCredits, clipSelectionCredits } from "../../../domain/pricing.ts"
import { wordsOfClip } from "../../../domain/clip-selection.ts"
import { clipsToCreate, isTerminal } from "../../../domain/clips.ts"
import { WorkFailed } from "../../../domain/errors.ts"
import { ClipsStore } from "../../../domain/ports/clips-store.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { Transcriber } from "../../../domain/ports/transcriber.ts"
import { checkSource } from "../../../domain/rules.ts"
import { clipsWork } from "../../kernel/clips-work.ts"
import { Done, handle } from "../../kernel/job.ts"
import { MakeClips } from "../../kernel/job-catalogue.ts"
import { downloadSource } from "../../shared/media/download-source.ts"
import { localFile, withScratchDir } from "../../shared/media/scratch.ts"
import { transcriptionHints } from "../../shared/media/transcription-hints.ts"
import { chargeClips } from "./parts/charge-clips.ts"
import { chooseClips } from "./parts/choose-clips.ts"
import { createClipVideo } from "./parts/create-clip-video.ts"

/** Times kept to the millisecond: what the record lists and each clip video's words. */
const ms = (seconds: number): number => Math.round(seconds * 1000) / 1000

export const makeClips = (clipsId: string) =>
  withScratchDir(`clips-${clipsId}`, (dir) =>
    Effect.gen(function*() {
      const store = yield* ClipsStore
      const load = store.getById(clipsId).pipe(Effect.map(Option.getOrThrow))
      const initial = yield* load
      if (isTerminal(initial)) return
      yield* clipsWork.step(initial, "fetching_source", Effect.gen(function*() {
        if (initial.sourceFileId !== null || initial.sourceUrl === null) return
        const file = yield* downloadSource(initial.workspaceId, initial.sourceUrl, dir)
        yield* clipsWork.apply(clipsId, (at) => ({ _tag: "SourceStored", fileId: file.id, at }))
      }))
      const stored = yield* load
      if (stored.sourceFileId === null) return yield* Effect.dieMessage(`clips ${clipsId} has no source`)
      const source = yield* localFile(stored.sourceFileId, `${dir}/source`)
      const media = yield* MediaEngine
      const facts = yield* clipsWork.step(initial, "probing", media.probe(source))
      const verdict = checkSource(facts)
      if (!verdict.ok) return yield* new WorkFailed({ message: verdict.reason })
      const { options } = stored
      if (facts.durationSeconds < options.minSeconds) {
        return yield* new WorkFailed({
          message: `The source is ${facts.durationSeconds.toFixed(1)} s long, shorter than the shortest clip asked for (minSeconds ${options.minSeconds}).`
        })
      }
      yield* clipsWork.apply(clipsId, (at) => ({ _tag: "SourceProbed", durationSeconds: facts.durationSeconds, at }))
      if (stored.clips === null) {
        const wav = `${dir}/audio.wav`
        yield* clipsWork.step(initial, "extracting_audio", media.extractAudio(source, wav))
        const transcriber = yield* Transcriber
        const hints = yield* transcriptionHints(stored.workspaceId, options.language)
        const words = yield* clipsWork.step(
          initial,
          "transcribing",
          chargeClips(clipsId, "transcription", captionCredits(facts.durationSeconds)).pipe(Effect.zipRight(transcriber.transcribe(wav, hints)))
        )
        if (words.length === 0) return yield* new WorkFailed({ message: "No speech was recognised in the source's audio, so there is nothing to cut clips of." })
        yield* clipsWork.step(initial, "selecting", Effect.gen(function*() {
          yield* chargeClips(clipsId, "selection", clipSelectionCredits(facts.durationSeconds))
          const picked = yield* chooseClips(words, options, facts.durationSeconds, stored.workspaceId)
          if (picked.length === 0) {
            return yield* new WorkFailed({
              message: `No stretch of whole sentences between ${options.minSeconds} and ${options.maxSeconds} seconds was found in the ` +
                `${words.length} words heard; widen minSeconds and maxSeconds.`
            })
          }
          yield* clipsWork.apply(clipsId, (at) => ({
            _tag: "Selected",
            clips: picked.map((clip) => {
              const start = ms(clip.startSeconds)
              return {
                startSeconds: start,
                endSeconds: ms(clip.endSeconds),
                score: clip.score,
                reasons: clip.reasons,
                firstLine: clip.firstLine,
                words: wordsOfClip(words, { ...clip, startSeconds: start }).map((w) => ({ ...w, start: Math.max(0, ms(w.start)), end: ms(w.end) }))
              }
            }),
            at
          }))
        }))
      }
      const chosen = yield* load
      yield* clipsWork.step(initial, "cutting", Effect.forEach(clipsToCreate(chosen), ({ index, clip }) => createClipVideo(chosen, source, index, clip, dir), { discard: true }))
      yield* clipsWork.apply(clipsId, (at) => ({ _tag: "Completed", at }))
    }))

export const makeClipsJob = handle(MakeClips, {
  run: ({ clipsId }) => makeClips(clipsId).pipe(Effect.catchTag("WorkFailed", (failure) => clipsWork.fail(clipsId, failure)), Effect.as(Done)),
  onDead: ({ clipsId }, error) =>
    clipsWork.fail(clipsId, new WorkFailed({ message: `Making the clips stopped after repeated internal errors (${error.slice(0, 200)}). Its credits were refunded; try again.` }))
})
