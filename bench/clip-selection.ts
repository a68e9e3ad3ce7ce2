// Choosing clips in a 60-minute transcript: how long the offline choosing (every run of whole sentences
// within the bounds scored, the best that do not overlap kept) takes for an hour of talk, against
// transcribing one minute of speech with the pocketsphinx adapter in the same run (the work it follows).
// The transcript is the speech-eval reference texts (real sentences) timed at 3 words a second with a
// pause between sentences, repeated to the length; tests measure what the choice is, this only its cost.
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { OfflineClipScorerLive } from "../adapters/clips/offline-clip-scorer.ts"
import { PocketsphinxTranscriberLive } from "../adapters/media/pocketsphinx-transcriber.ts"
import type { TimedWord } from "../domain/captions.ts"
import { Transcriber } from "../domain/ports/transcriber.ts"
import { chooseClips } from "../src/ops/clips/parts/choose-clips.ts"
import { speak } from "../test/support/festival.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"

const run = promisify(execFile)
const BENCH = "clip-selection"
const MINUTES = Number(process.env["CLIP_BENCH_MINUTES"] ?? 60)
const SPEECH_EVAL = join(import.meta.dirname, "..", "..", "shared", "speech-eval")
const FALLBACK_TEXT =
  "Why do fishing boats leave the harbour before six in the morning. The answer is the tide which turns at dawn. " +
  "My grandfather sailed from this harbour for forty years. He never missed a single morning."

/** Real sentences where speech-eval is at hand, else a few of our own. */
const referenceSentences = async (): Promise<ReadonlyArray<ReadonlyArray<string>>> => {
  const names = await readdir(SPEECH_EVAL).then((all) => all.filter((n) => n.endsWith(".txt")).sort(), () => [])
  const text = names.length === 0 ? FALLBACK_TEXT : (await Promise.all(names.map((n) => readFile(join(SPEECH_EVAL, n), "utf8")))).join(" ")
  const words = text.split(/\s+/).filter((w) => w !== "")
  // Sentences of 8 to 22 words, cut by a fixed rhythm so every run is the same.
  const sentences: Array<ReadonlyArray<string>> = []
  for (let at = 0, k = 0; at < words.length; k++) {
    const length = 8 + ((k * 7) % 15)
    sentences.push(words.slice(at, at + length))
    at += length
  }
  return sentences
}

const transcriptOf = (sentences: ReadonlyArray<ReadonlyArray<string>>, seconds: number): Array<TimedWord> => {
  const words: Array<TimedWord> = []
  let at = 0.5
  for (let k = 0; at < seconds - 10; k++) {
    for (const text of sentences[k % sentences.length]!) {
      words.push({ text, start: at, end: at + 0.3 })
      at += 0.33
    }
    at += 0.5 + (k % 4) * 0.25
  }
  return words
}

export const clipSelection = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-clips-"))
  try {
    const seconds = MINUTES * 60
    const words = transcriptOf(await referenceSentences(), seconds)
    const choose = (bounds: { count: number; minSeconds: number; maxSeconds: number }) =>
      chooseClips(words, bounds, seconds, "bench").pipe(Effect.provide(OfflineClipScorerLive))
    const times: Array<number> = []
    let picked = 0
    for (let round = 0; round < 3; round++) {
      const started = performance.now()
      picked = (await Effect.runPromise(choose({ count: 10, minSeconds: 15, maxSeconds: 60 }))).length
      times.push(performance.now() - started)
    }
    const started = performance.now()
    await Effect.runPromise(choose({ count: 20, minSeconds: 60, maxSeconds: 300 }))
    const longest = performance.now() - started
    const selectionMs = median(times)
    console.log(`${BENCH}: ${MINUTES} min, ${words.length} words: 10 clips of 15-60 s chosen in ${selectionMs.toFixed(0)} ms (median of 3), 20 of 60-300 s in ${longest.toFixed(0)} ms`)

    // The baseline: one minute of festival speech through the pocketsphinx adapter.
    const speech = await speak(`${FALLBACK_TEXT} `.repeat(5), dir)
    const minute = join(dir, "minute.wav")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-stream_loop", "-1", "-i", speech.wavPath, "-t", "60", "-ar", "16000", "-ac", "1", minute])
    const transcriber = await Effect.runPromise(Effect.provide(Transcriber, PocketsphinxTranscriberLive))
    const heardAt = performance.now()
    await Effect.runPromise(transcriber.transcribe(minute, { language: "en" }))
    const transcribeMs = performance.now() - heardAt
    console.log(`${BENCH}: transcribing 1 min of speech (pocketsphinx) ${(transcribeMs / 1000).toFixed(1)} s`)
    const note = `${MINUTES} min transcript, ${words.length} words, ${picked} clips of 15-60 s`
    return [
      { bench: BENCH, name: `choosing clips in a ${MINUTES}-minute transcript`, value: selectionMs, unit: "ms", note },
      { bench: BENCH, name: "the same, 20 clips of 60-300 s", value: longest, unit: "ms", note: `${MINUTES} min transcript` },
      {
        bench: BENCH,
        name: `choosing for ${MINUTES} min / transcribing 1 min (pocketsphinx)`,
        value: (100 * selectionMs) / transcribeMs,
        unit: "%",
        note: `transcribing 1 min took ${(transcribeMs / 1000).toFixed(1)} s in this run`
      }
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await clipSelection())
