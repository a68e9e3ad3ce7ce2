// Words a person retyped in the editor (or sent by API) get their times from the audio, not from the
// editor's guess: each run of retyped words is aligned to the source's audio between the words around it.
// Alignment is an improvement, not a condition: without a stored source, or when the aligner cannot
// place a word, the times given stay.
import { Effect } from "effect"
import { retypedRuns } from "../../../../domain/caption-edits.ts"
import type { TimedWord } from "../../../../domain/captions.ts"
import { Aligner } from "../../../../domain/ports/aligner.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import { spokenForms } from "../../../../domain/spoken-forms.ts"
import { roundMs } from "../../../../domain/spoken-words.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { localSource, withScratchDir } from "../../../shared/media/scratch.ts"
import { withSpan } from "../../../kernel/spans.ts"


export const realignRetyped = (video: VideoRecord, stored: ReadonlyArray<TimedWord>, edited: ReadonlyArray<TimedWord>) =>
  Effect.gen(function*() {
    const runs = retypedRuns(stored, edited)
    if (runs.length === 0 || video.sourceFileId === null) return edited
    const duration = video.durationSeconds ?? Infinity
    return yield* withScratchDir(`realign-${video.id}`, (dir) =>
      Effect.gen(function*() {
        const source = yield* localSource(video, dir)
        const media = yield* MediaEngine
        const aligner = yield* Aligner
        const out = [...edited]
        for (const [k, run] of runs.entries()) {
          // The window: from the end of the word before the run to the start of the word after it.
          const start = run.first === 0 ? 0 : edited[run.first - 1]!.end
          const end = Math.min(duration, run.end === edited.length ? (edited[run.end - 1]!.end + 1) : edited[run.end]!.start)
          if (end - start < 0.05) continue
          const wav = `${dir}/run-${k}.wav`
          yield* media.extractAudio(source, wav, { start, end })
          const words = edited.slice(run.first, run.end)
          const [marks = []] = yield* aligner.align(wav, [{ start: 0, end: end - start, words: words.map((w) => spokenForms(w.text)) }])
          const timed = words.map((word, i) => {
            const mark = marks[i]
            return mark?.start === undefined
              ? word
              : { ...word, start: roundMs(start + mark.start), end: roundMs(start + (mark.speechEnd ?? mark.start)) }
          })
          // Times must stay in order with the words around: otherwise the guess stands.
          const inOrder = timed.every((w, i) => w.end >= w.start && (i === 0 ? w.start >= start : w.start >= timed[i - 1]!.start))
          if (inOrder) out.splice(run.first, timed.length, ...timed)
        }
        return out
      }))
  }).pipe(
    Effect.catchTag("WorkFailed", (failure) => Effect.as(Effect.logWarning("retyped words not aligned", failure.message), edited)),
    withSpan("realignRetyped", { attributes: { videoId: video.id } })
  )
