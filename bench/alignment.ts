// Forced alignment of a user's transcript (caption videos with `transcript`), as the worker runs it:
// the recogniser's words decide whether the script matches and where long audio is cut, then
// pocketsphinx_batch times the script's own words.
//   - festival speech of caption-render's script: |word start error| against festival's own times, the
//     aligned script beside the recogniser's words (the baseline: captions without a transcript)
//   - speech-eval (real read speech, read in place: GPL audio): each clip's reference aligned (its words
//     kept exactly, 0% WER by construction), its word starts against a second method's: where the
//     recogniser heard the same word in a run of two or more. And the share of a script heard, of the
//     clip's own and of each other clip's, which decides a mismatch.
//   - real-time factor of the alignment alone (the recognition is timed by bench/recognition.ts).
// Targets (issue 18): festival starts mean <= 33 ms, p90 <= 80 ms; on speech-eval, starts within 100 ms of
// the second method in at least two clips.
import { Effect, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { PocketsphinxAlignerLive } from "../adapters/media/pocketsphinx-aligner.ts"
import { PocketsphinxTranscriberLive } from "../adapters/media/pocketsphinx-transcriber.ts"
import type { TimedWord } from "../domain/captions.ts"
import { Transcriber } from "../domain/ports/transcriber.ts"
import { matchScript, MIN_HEARD_SHARE } from "../domain/script-alignment.ts"
import { alignTranscript } from "../src/ops/caption-video/parts/align-transcript.ts"
import { readWavFormat } from "../test/support/clips.ts"
import { speak } from "../test/support/festival.ts"
import { speechEvalClips, speechEvalMissing } from "../test/support/speech-eval.ts"
import { wordStartErrors } from "../test/support/wer.ts"
import { SCRIPT } from "./caption-render.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"

const run = promisify(execFile)
const BENCH = "alignment"
const ms = (seconds: number | undefined): number | null => (seconds === undefined ? null : seconds * 1000)
const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
}

export const alignment = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-alignment-"))
  const runtime = ManagedRuntime.make(PocketsphinxAlignerLive)
  const transcriber = await Effect.runPromise(Effect.provide(Transcriber, PocketsphinxTranscriberLive))
  try {
    const figures: Array<Figure> = []
    const align = async (script: string, wavPath: string, heard: ReadonlyArray<TimedWord>, duration: number) => {
      const started = performance.now()
      const words = await runtime.runPromise(alignTranscript(script, wavPath, heard, duration))
      return { words, seconds: (performance.now() - started) / 1000 }
    }

    console.log(`${BENCH}: ${availableParallelism()} cores; making festival speech (not timed)`)
    const speech = await speak(SCRIPT, dir)
    const wavPath = join(dir, "speech16k.wav")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", speech.wavPath, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wavPath])
    const duration = (await readWavFormat(wavPath)).durationSeconds
    const heard = await Effect.runPromise(transcriber.transcribe(wavPath))
    await align(SCRIPT, wavPath, heard, duration) // warm-up: the dictionary reaches the page cache
    const festival = await align(SCRIPT, wavPath, heard, duration)
    const exact = festival.words.map((w) => w.text).join(" ") === SCRIPT.split(/\s+/).join(" ")
    const aligned = wordStartErrors(speech.words, festival.words)
    const recognised = wordStartErrors(speech.words, heard)
    console.log(
      `${BENCH}: festival: words ${exact ? "exact" : "CHANGED"}, starts mean ${ms(aligned?.mean)?.toFixed(0)} ms p90 ${ms(aligned?.p90)?.toFixed(0)} ms ` +
        `over ${aligned?.aligned} words (recogniser: ${ms(recognised?.mean)?.toFixed(0)} / ${ms(recognised?.p90)?.toFixed(0)} ms over ${recognised?.aligned}), ` +
        `RTF ${(festival.seconds / duration).toFixed(3)}`
    )
    figures.push(
      { bench: BENCH, name: "festival: script words kept", value: exact ? 100 : 0, unit: "%", note: `${festival.words.length} words` },
      { bench: BENCH, name: "festival: aligned start error mean", value: ms(aligned?.mean), unit: "ms", target: { atMost: 33 }, note: `over ${aligned?.aligned} words` },
      { bench: BENCH, name: "festival: aligned start error p90", value: ms(aligned?.p90), unit: "ms", target: { atMost: 80 } },
      { bench: BENCH, name: "festival: recogniser start error mean (baseline)", value: ms(recognised?.mean), unit: "ms", note: `over ${recognised?.aligned} words it heard right` },
      { bench: BENCH, name: "festival: words timed, aligned / recognised right", value: (aligned?.aligned ?? 0) / Math.max(1, recognised?.aligned ?? 0), unit: "x" },
      { bench: BENCH, name: "festival: alignment RTF", value: festival.seconds / duration, unit: "x", note: `wall / ${duration.toFixed(1)} s of audio` }
    )

    if (speechEvalMissing !== undefined) {
      console.log(`${BENCH}: no real speech: ${speechEvalMissing}`)
      return [...figures, { bench: BENCH, name: "speech-eval", value: null, unit: "", note: speechEvalMissing }]
    }
    const clips = await speechEvalClips()
    const heardOf = await Promise.all(clips.map((clip) => Effect.runPromise(transcriber.transcribe(clip.wavPath))))
    const allErrors: Array<number> = []
    let within = 0
    let seconds = 0
    let kept = 0
    for (const [k, clip] of clips.entries()) {
      const result = await align(clip.reference, clip.wavPath, heardOf[k]!, clip.durationSeconds)
      seconds += result.seconds
      if (result.words.map((w) => w.text).join(" ") === clip.reference.split(/\s+/).join(" ")) kept++
      // The second method: the recogniser's own start of each word it heard in a run.
      const anchors = matchScript(clip.reference.split(/\s+/), heardOf[k]!).anchors
      const errors = anchors.map((a) => Math.abs(result.words[a.word]!.start - a.start))
      allErrors.push(...errors)
      const inside = errors.length > 0 && errors.every((e) => e <= 0.1)
      if (inside) within++
      console.log(`${BENCH}: ${clip.name}: ${errors.length} words to compare, |start difference| max ${errors.length === 0 ? "-" : (1000 * Math.max(...errors)).toFixed(0)} ms`)
    }
    const shares = clips.map((_, k) => clips.map((other) => matchScript(other.reference.split(/\s+/), heardOf[k]!).heardShare))
    const own = shares.map((row, k) => row[k]!)
    const others = shares.flatMap((row, k) => row.filter((_, j) => j !== k))
    const audio = clips.reduce((sum, clip) => sum + clip.durationSeconds, 0)
    console.log(
      `${BENCH}: speech-eval: ${kept}/${clips.length} clips keep their words, ${within} clips with every compared start within 100 ms, ` +
        `mean ${(1000 * allErrors.reduce((a, b) => a + b, 0) / allErrors.length).toFixed(0)} ms; heard share own ${Math.min(...own).toFixed(2)}-${Math.max(...own).toFixed(2)}, ` +
        `others up to ${Math.max(...others).toFixed(2)}`
    )
    figures.push(
      { bench: BENCH, name: "speech-eval: aligned WER", value: 100 * (1 - kept / clips.length), unit: "%", note: "clips whose words changed" },
      { bench: BENCH, name: "speech-eval: clips with starts within 100 ms of the recogniser's", value: within, unit: "clips", note: `of ${clips.length}; target at least 2` },
      { bench: BENCH, name: "speech-eval: start difference mean", value: ms(allErrors.reduce((a, b) => a + b, 0) / allErrors.length), unit: "ms", note: `${allErrors.length} words` },
      { bench: BENCH, name: "speech-eval: start difference p90", value: ms(quantile(allErrors, 0.9)), unit: "ms" },
      { bench: BENCH, name: "speech-eval: alignment RTF", value: seconds / audio, unit: "x" },
      { bench: BENCH, name: "speech-eval: own script heard, lowest", value: 100 * Math.min(...own), unit: "%", note: `refused below ${100 * MIN_HEARD_SHARE}%` },
      { bench: BENCH, name: "speech-eval: another clip's script heard, highest", value: 100 * Math.max(...others), unit: "%" },
      {
        bench: BENCH,
        name: "speech-eval: other clips' scripts taken as matching",
        value: others.filter((s) => s >= MIN_HEARD_SHARE).length,
        unit: "pairs",
        note: `of ${others.length}`
      }
    )
    return figures
  } finally {
    await runtime.dispose()
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await alignment())
