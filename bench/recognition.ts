// Speech recognition on this machine, engine by engine: pocketsphinx with its own defaults (the baseline)
// and with the adapter's settings (POCKETSPHINX_* as the service reads them), and whisper.cpp when
// WHISPER_MODEL names a model with trained weights.
//   - word error rate on real read speech (../shared/speech-eval, read in place: GPL audio), per clip and overall
//   - |word start error| against festival's own word times, on festival speech of caption-render's script
//   - real-time factor: wall time / audio length. Clips run one after another and each is one pocketsphinx
//     chunk, so for pocketsphinx it is one core's.
// Targets (issue 18) are the adapter's pocketsphinx's: WER <= 40% on speech-eval, word starts mean <= 33 ms, p90 <= 80 ms.
import { Effect, Either, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { basename, join } from "node:path"
import { promisify } from "node:util"
import { makePocketsphinxTranscriber, PocketsphinxTranscriberLive } from "../adapters/media/pocketsphinx-transcriber.ts"
import { whisperAddonInstalled, WhisperTranscriberLive } from "../adapters/media/whisper-transcriber.ts"
import { LOW_CONFIDENCE, type TimedWord } from "../domain/captions.ts"
import { Transcriber, type TranscriberShape } from "../domain/ports/transcriber.ts"
import { readWavFormat } from "../test/support/clips.ts"
import { type SpokenWord, speak } from "../test/support/festival.ts"
import { type EvalClip, speechEvalClips, speechEvalMissing } from "../test/support/speech-eval.ts"
import { normaliseWords, wordErrors, wordStartErrors } from "../test/support/wer.ts"
import { SCRIPT } from "./caption-render.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"

const run = promisify(execFile)

const BENCH = "recognition"

interface Engine {
  readonly label: string
  readonly transcriber: TranscriberShape
  /** The targets apply to it. */
  readonly targeted: boolean
}

interface Festival {
  readonly wavPath: string
  readonly words: ReadonlyArray<SpokenWord>
  readonly durationSeconds: number
}

const transcribe = async (engine: Engine, wavPath: string) => {
  const started = performance.now()
  const words = await Effect.runPromise(engine.transcriber.transcribe(wavPath, { language: "en" }))
  return { words, seconds: (performance.now() - started) / 1000 }
}

const errorsIn = (reference: string, words: ReadonlyArray<TimedWord>) =>
  wordErrors(normaliseWords([reference]), normaliseWords(words.map((w) => w.text)))

const percent = (errors: number, words: number): number => (100 * errors) / words

/**
 * One transcription of the festival speech, not timed: a warm-up (whisper loads its model, pocketsphinx's
 * files reach the page cache) and the reason to leave out an engine that fails or hears nothing.
 */
const skipReason = async (engine: Engine, festival: Festival): Promise<string | undefined> => {
  const heard = await Effect.runPromise(Effect.either(engine.transcriber.transcribe(festival.wavPath, { language: "en" })))
  if (Either.isLeft(heard)) return heard.left.message
  return heard.right.length === 0 ? "heard no words in festival speech: a model without trained weights (like the tests' model)" : undefined
}

const speechEvalFigures = async (engine: Engine, clips: ReadonlyArray<EvalClip>): Promise<ReadonlyArray<Figure>> => {
  const perClip: Array<Figure> = []
  let errors = 0
  let words = 0
  let seconds = 0
  // Words the engine was unsure of (below LOW_CONFIDENCE) and the rest: how many of each it got wrong.
  const marked = { unsure: 0, unsureWrong: 0, sure: 0, sureWrong: 0 }
  for (const clip of clips) {
    const heard = await transcribe(engine, clip.wavPath)
    const result = errorsIn(clip.reference, heard.words)
    const right = new Set(result.matches.map(([, h]) => h))
    heard.words.forEach((word, h) => {
      if (word.confidence === undefined) return
      const unsure = word.confidence < LOW_CONFIDENCE
      marked[unsure ? "unsure" : "sure"]++
      if (!right.has(h)) marked[unsure ? "unsureWrong" : "sureWrong"]++
    })
    errors += result.errors
    words += result.referenceWords
    seconds += heard.seconds
    perClip.push({
      bench: BENCH,
      name: `${engine.label}: ${clip.name} WER`,
      value: 100 * result.rate,
      unit: "%",
      note: `${result.errors}/${result.referenceWords}`
    })
  }
  const audio = clips.reduce((sum, clip) => sum + clip.durationSeconds, 0)
  console.log(`${BENCH}: ${engine.label}: speech-eval WER ${percent(errors, words).toFixed(1)}% (${errors}/${words}), RTF ${(seconds / audio).toFixed(3)}`)
  return [
    {
      bench: BENCH,
      name: `${engine.label}: speech-eval WER`,
      value: percent(errors, words),
      unit: "%",
      note: `${errors}/${words} words, ${clips.length} clips`,
      ...(engine.targeted ? { target: { atMost: 40 } } : {})
    },
    {
      bench: BENCH,
      name: `${engine.label}: speech-eval RTF`,
      value: seconds / audio,
      unit: "x",
      note: `wall / ${audio.toFixed(1)} s of audio`
    },
    ...(marked.unsure + marked.sure === 0 ? [] : [
      {
        bench: BENCH,
        name: `${engine.label}: speech-eval words marked unsure that are wrong`,
        value: percent(marked.unsureWrong, Math.max(1, marked.unsure)),
        unit: "%",
        note: `${marked.unsureWrong}/${marked.unsure}; of the words not marked, ${marked.sureWrong}/${marked.sure} are wrong`
      }
    ]),
    ...perClip
  ]
}

const festivalFigures = async (engine: Engine, festival: Festival): Promise<ReadonlyArray<Figure>> => {
  const heard = await transcribe(engine, festival.wavPath)
  const wer = errorsIn(SCRIPT, heard.words)
  const starts = wordStartErrors(festival.words, heard.words)
  const ms = (seconds: number | undefined) => (seconds === undefined ? null : seconds * 1000)
  console.log(
    `${BENCH}: ${engine.label}: festival WER ${(100 * wer.rate).toFixed(1)}%, word starts mean ${ms(starts?.mean)?.toFixed(0)} ms ` +
      `p90 ${ms(starts?.p90)?.toFixed(0)} ms, RTF ${(heard.seconds / festival.durationSeconds).toFixed(3)}`
  )
  const aligned = `over ${starts?.aligned ?? 0} aligned words`
  return [
    { bench: BENCH, name: `${engine.label}: festival WER`, value: 100 * wer.rate, unit: "%", note: `${wer.errors}/${wer.referenceWords}` },
    {
      bench: BENCH,
      name: `${engine.label}: festival word start error mean`,
      value: ms(starts?.mean),
      unit: "ms",
      note: aligned,
      ...(engine.targeted ? { target: { atMost: 33 } } : {})
    },
    {
      bench: BENCH,
      name: `${engine.label}: festival word start error p90`,
      value: ms(starts?.p90),
      unit: "ms",
      note: aligned,
      ...(engine.targeted ? { target: { atMost: 80 } } : {})
    },
    {
      bench: BENCH,
      name: `${engine.label}: festival RTF`,
      value: heard.seconds / festival.durationSeconds,
      unit: "x",
      note: `wall / ${festival.durationSeconds.toFixed(1)} s of audio`
    }
  ]
}

/** A figure of `engine` over the same figure of the baseline. */
const ratios = (figures: ReadonlyArray<Figure>, baseline: Engine, engine: Engine): ReadonlyArray<Figure> =>
  ["speech-eval WER", "speech-eval RTF", "festival word start error mean", "festival RTF"].map((name) => {
    const of = (e: Engine) => figures.find((f) => f.name === `${e.label}: ${name}`)?.value ?? null
    const [ours, base] = [of(engine), of(baseline)]
    return {
      bench: BENCH,
      name: `${engine.label} / ${baseline.label}: ${name}`,
      value: ours === null || base === null || base === 0 ? null : ours / base,
      unit: "x"
    }
  })

export const recognition = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-recognition-"))
  const modelPath = process.env["WHISPER_MODEL"] ?? ""
  const whisper = modelPath === "" ? undefined : ManagedRuntime.make(WhisperTranscriberLive({ modelPath }))
  try {
    console.log(`${BENCH}: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}; making festival speech (not timed)`)
    const speech = await speak(SCRIPT, dir)
    const wavPath = join(dir, "speech16k.wav")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", speech.wavPath, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wavPath])
    const festival: Festival = { wavPath, words: speech.words, durationSeconds: (await readWavFormat(wavPath)).durationSeconds }

    const baseline: Engine = {
      label: "pocketsphinx defaults",
      transcriber: makePocketsphinxTranscriber({
        binary: process.env["POCKETSPHINX_PATH"] ?? "pocketsphinx_continuous",
        parallelism: availableParallelism(),
        minChunkSeconds: 60,
        maxChunkSeconds: 300,
        decoderArgs: [],
        chunkCmn: false
      }),
      targeted: false
    }
    const candidates: Array<Engine> = [
      baseline,
      { label: "pocketsphinx adapter", transcriber: await Effect.runPromise(Effect.provide(Transcriber, PocketsphinxTranscriberLive)), targeted: true }
    ]
    if (whisper === undefined) console.log(`${BENCH}: whisper.cpp skipped: WHISPER_MODEL is not set (a ggml model with trained weights)`)
    else if (!whisperAddonInstalled()) console.log(`${BENCH}: whisper.cpp skipped: its Node addon is not installed`)
    else candidates.push({ label: `whisper ${basename(modelPath)}`, transcriber: await whisper.runPromise(Transcriber), targeted: false })

    const engines: Array<Engine> = []
    for (const engine of candidates) {
      const reason = await skipReason(engine, festival)
      if (reason === undefined) engines.push(engine)
      else console.log(`${BENCH}: ${engine.label} skipped: ${reason}`)
    }

    const clips = speechEvalMissing === undefined ? await speechEvalClips() : []
    if (speechEvalMissing !== undefined) console.log(`${BENCH}: no WER on real speech: ${speechEvalMissing}`)
    const figures: Array<Figure> = []
    for (const engine of engines) {
      if (clips.length > 0) figures.push(...(await speechEvalFigures(engine, clips)))
      figures.push(...(await festivalFigures(engine, festival)))
    }
    if (speechEvalMissing !== undefined) {
      figures.push({ bench: BENCH, name: "speech-eval WER", value: null, unit: "%", note: speechEvalMissing })
    }
    if (engines.includes(baseline)) {
      figures.push(...engines.filter((e) => e !== baseline).flatMap((engine) => ratios(figures, baseline, engine)))
    }
    return figures
  } finally {
    await whisper?.dispose()
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await recognition())
