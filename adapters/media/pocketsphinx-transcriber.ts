// Offline speech recognition with Debian's pocketsphinx (`pocketsphinx_continuous -time yes`).
// It runs at 3 to 7x real time on one core (short clips pay for loading the model), so long audio is cut at quiet points into chunks that
// run in parallel, one per core, and the chunks' word times are shifted by where each chunk starts.
// The settings are tuned on real read speech (bench/recognition.ts); it remains the fallback engine.
import { Config, Effect, Layer } from "effect"
import { createReadStream, createWriteStream } from "node:fs"
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import type { TimedWord } from "../../domain/captions.ts"
import { ENGLISH_ONLY } from "../../domain/languages.ts"
import { Transcriber, type TranscriberShape } from "../../domain/ports/transcriber.ts"
import { runPocketsphinx } from "./pocketsphinx-process.ts"
import { pcmWavHeader } from "./wav-file.ts"

export interface PocketsphinxOptions {
  readonly binary: string
  /** How many recognisers run at once. */
  readonly parallelism: number
  /** Chunks are never shorter than this (a recogniser needs some audio to adapt to the voice)... */
  readonly minChunkSeconds: number
  /** ...and not longer than this, so work spreads evenly over the cores. */
  readonly maxChunkSeconds: number
  /**
   * Decoder arguments for every chunk (pocketsphinx refuses one given twice). Left out: DECODER_ARGS;
   * `[]` is pocketsphinx's own defaults.
   */
  readonly decoderArgs?: ReadonlyArray<string>
  /** Start each chunk's cepstral mean from the chunk's own (see `chunkCmnArgs`); left out, true. */
  readonly chunkCmn?: boolean
}

/**
 * Wider beams for the second (fwdflat) search than its defaults 1e-64 and 7e-29: on speech-eval, 2 of 81
 * words fewer wrong for about 20% more time. Wider first-pass beams (-beam, -pbeam, -wbeam) cost 60% more
 * time and gained nothing; -lw, -fillprob, -wip, -silprob, -maxhmmpf and -remove_noise no did no better
 * than 3 words either way (the noise of one 81-word set), so they stay at pocketsphinx's defaults.
 */
export const DECODER_ARGS: ReadonlyArray<string> = ["-fwdflatbeam", "1e-80", "-fwdflatwbeam", "1e-40"]

const SAMPLE_RATE = 16_000
/** 10 ms of samples: pocketsphinx's own frame. */
const FRAME = 160
/** A cut goes in the middle of the quietest 200 ms near its target. */
const QUIET_FRAMES = 20
const SEARCH_SECONDS = 5

/** Noise and silence markers, not words: <s>, </s>, <sil>, [NOISE], ++BREATH++. */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/

/** Parses pocketsphinx's `word start end prob` lines, shifting times by `offset` seconds. */
export const parsePocketsphinxWords = (stdout: string, offset = 0): Array<TimedWord> =>
  stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 4 && parts.slice(1).every((n) => Number.isFinite(Number(n))))
    .filter(([word]) => !FILLER.test(word!))
    .map(([word, start, end, probability]) => ({
      // "(2)" marks the dictionary's second pronunciation; the recogniser's lowercase "i" is the pronoun.
      text: word!.replace(/\(\d+\)$/, "").replace(/^i(?='|$)/, "I"),
      start: roundMs(offset + Number(start)),
      end: roundMs(offset + Number(end)),
      // The word's posterior probability.
      confidence: Math.round(Math.min(1, Math.max(0, Number(probability))) * 1000) / 1000
    }))

const roundMs = (seconds: number): number => Math.round(seconds * 1000) / 1000

interface PcmLayout {
  readonly dataOffset: number
  readonly samples: number
}

/** A range of samples, end exclusive. */
interface Chunk {
  readonly start: number
  readonly end: number
}

const malformed = (path: string, what: string) => Effect.die(new Error(`${path} is not a 16 kHz mono 16-bit WAV: ${what}`))

/** Finds the samples in a RIFF file and checks they are what pocketsphinx's acoustic model expects. */
const readLayout = (path: string) =>
  Effect.acquireUseRelease(
    Effect.promise(() => open(path)),
    (file) =>
      Effect.gen(function*() {
        const size = (yield* Effect.promise(() => file.stat())).size
        const read = (position: number, length: number) =>
          Effect.promise(async () => {
            const buffer = Buffer.alloc(length)
            const { bytesRead } = await file.read(buffer, 0, length, position)
            return buffer.subarray(0, bytesRead)
          })
        const riff = yield* read(0, 12)
        if (riff.toString("latin1", 0, 4) !== "RIFF" || riff.toString("latin1", 8, 12) !== "WAVE") {
          return yield* malformed(path, "no RIFF/WAVE header")
        }
        let position = 12
        let formatChecked = false
        while (position + 8 <= size) {
          const header = yield* read(position, 8)
          const id = header.toString("latin1", 0, 4)
          const length = header.readUInt32LE(4)
          if (id === "fmt ") {
            const fmt = yield* read(position + 8, 16)
            const [format, channels, rate, bits] = [fmt.readUInt16LE(0), fmt.readUInt16LE(2), fmt.readUInt32LE(4), fmt.readUInt16LE(14)]
            if (format !== 1 || channels !== 1 || rate !== SAMPLE_RATE || bits !== 16) {
              return yield* malformed(path, `format ${format}, ${channels} channels, ${rate} Hz, ${bits} bits`)
            }
            formatChecked = true
          } else if (id === "data") {
            if (!formatChecked) return yield* malformed(path, "no fmt chunk before the data")
            // A WAV written to a pipe may carry a placeholder length; the file's end is the truth.
            const bytes = Math.min(length, size - position - 8)
            return { dataOffset: position + 8, samples: Math.floor(bytes / 2) } satisfies PcmLayout
          }
          position += 8 + length + (length % 2)
        }
        return yield* malformed(path, "no data chunk")
      }),
    (file) => Effect.promise(() => file.close())
  )

const chunkCount = (samples: number, options: PocketsphinxOptions): number => {
  const seconds = samples / SAMPLE_RATE
  const wanted = Math.max(options.parallelism, Math.ceil(seconds / options.maxChunkSeconds))
  return Math.max(1, Math.min(Math.floor(seconds / options.minChunkSeconds), wanted))
}

/** The sample in the middle of the quietest stretch within a few seconds of `target`. */
const quietestNear = (path: string, layout: PcmLayout, target: number, radius: number) =>
  Effect.promise(async () => {
    const from = Math.max(0, target - radius)
    const to = Math.min(layout.samples, target + radius)
    const buffer = Buffer.alloc((to - from) * 2)
    const file = await open(path)
    try {
      await file.read(buffer, 0, buffer.length, layout.dataOffset + from * 2)
    } finally {
      await file.close()
    }
    const frames = Math.floor((to - from) / FRAME)
    const energy = new Float64Array(frames)
    for (let f = 0; f < frames; f++) {
      for (let s = f * FRAME; s < (f + 1) * FRAME; s++) energy[f]! += buffer.readInt16LE(s * 2) ** 2
    }
    let best = Math.max(0, Math.floor((target - from) / FRAME) - QUIET_FRAMES / 2)
    let bestSum = Infinity
    let sum = 0
    for (let f = 0; f < frames; f++) {
      sum += energy[f]!
      if (f >= QUIET_FRAMES) sum -= energy[f - QUIET_FRAMES]!
      if (f >= QUIET_FRAMES - 1 && sum < bestSum) {
        bestSum = sum
        best = f - QUIET_FRAMES + 1
      }
    }
    return from + (best + QUIET_FRAMES / 2) * FRAME
  })

/** Sample ranges that cover the audio, cut in quiet places. */
const chunksOf = (path: string, layout: PcmLayout, options: PocketsphinxOptions) =>
  Effect.gen(function*() {
    const count = chunkCount(layout.samples, options)
    const length = layout.samples / count
    const radius = Math.min(SEARCH_SECONDS * SAMPLE_RATE, Math.floor(length / 4))
    const cuts = yield* Effect.forEach(
      Array.from({ length: count - 1 }, (_, i) => Math.round((i + 1) * length)),
      (target) => quietestNear(path, layout, target, radius)
    )
    const bounds = [0, ...cuts, layout.samples]
    return bounds.slice(1).map((end, i) => ({ start: bounds[i]!, end })).filter((chunk) => chunk.end > chunk.start)
  })

/**
 * Copies one range of samples into a WAV of its own: pocketsphinx reads only files, and the
 * /dev/stdin it could read instead cannot be opened on the socket Node gives a child as stdin.
 */
const writeChunk = (source: string, layout: PcmLayout, chunk: Chunk, target: string) =>
  Effect.promise(() =>
    pipeline(
      async function*() {
        yield pcmWavHeader(chunk.end - chunk.start, SAMPLE_RATE)
        yield* createReadStream(source, {
          start: layout.dataOffset + chunk.start * 2,
          end: layout.dataOffset + chunk.end * 2 - 1
        })
      },
      createWriteStream(target)
    )
  )

/** The mean pocketsphinx's log gives first: `cmn_live.c(138): Update to   < 31.90  4.49 ... >`. */
const firstCepstralMean = (log: string): string | undefined => {
  const values = /Update to\s*<([^>]*)>/.exec(log)?.[1]?.trim().split(/\s+/)
  return values !== undefined && values.every((v) => Number.isFinite(Number(v))) ? values.join(",") : undefined
}

/**
 * pocketsphinx subtracts a running cepstral mean that starts at the model's -cmninit and is first
 * updated at the end of the first utterance (or after 8 s of speech), so a voice or microphone far from
 * that start loses much of the first utterance of every chunk, which is all of a short clip: speech-eval's
 * WER is 64% so and 49% when each clip starts from its own mean. A keyword search over the chunk costs a
 * few percent of a decode and logs that first mean; the decode starts from it. The model's feat.params
 * overrides a -cmninit on the command line, so the mean goes into a copy of it. [] when the log lacks
 * the mean or the model's directory (the model's own start then stands).
 */
const chunkCmnArgs = (binary: string, chunkPath: string, decoderArgs: ReadonlyArray<string>, featPath: string) =>
  Effect.gen(function*() {
    const hmm = decoderArgs.indexOf("-hmm")
    const { err } = yield* runPocketsphinx(binary, [
      "-infile", chunkPath,
      // Only the front end (and so the mean) matters here: the cheapest search (spotting "a", a word every
      // English dictionary has), scoring every 10th frame.
      "-keyphrase", "a", "-ds", "10", "-topn", "1",
      ...(hmm === -1 ? [] : decoderArgs.slice(hmm, hmm + 2))
    ])
    const mean = firstCepstralMean(err)
    // The configuration pocketsphinx logs first names the acoustic model's directory.
    const modelDir = /^-hmm\s+(\S+)\s*$/m.exec(err)?.[1]
    if (mean === undefined || modelDir === undefined) return []
    const params = yield* Effect.promise(() => readFile(join(modelDir, "feat.params"), "utf8").catch(() => undefined))
    if (params === undefined) return []
    const lines = params.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("-cmninit"))
    yield* Effect.promise(() => writeFile(featPath, [...lines, `-cmninit ${mean}`, ""].join("\n")))
    return ["-featparams", featPath]
  })

const recognise = (binary: string, chunkPath: string, options: PocketsphinxOptions, featPath: string) =>
  Effect.gen(function*() {
    const decoderArgs = options.decoderArgs ?? DECODER_ARGS
    const cmnArgs = options.chunkCmn === false ? [] : yield* chunkCmnArgs(binary, chunkPath, decoderArgs, featPath)
    const { out } = yield* runPocketsphinx(binary, [
      "-infile", chunkPath, "-time", "yes", "-logfn", "/dev/null", ...cmnArgs, ...decoderArgs
    ])
    return out
  })

export const makePocketsphinxTranscriber = (options: PocketsphinxOptions): TranscriberShape =>
  Transcriber.of({
    name: "pocketsphinx",
    model: "en-us",
    languages: ENGLISH_ONLY,
    transcribe: (wavPath) =>
      Effect.gen(function*() {
        const layout = yield* readLayout(wavPath)
        const chunks = yield* chunksOf(wavPath, layout, options)
        const dir = yield* Effect.acquireRelease(
          Effect.promise(() => mkdtemp(join(tmpdir(), "pocketsphinx-"))),
          (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
        )
        const words = yield* Effect.forEach(
          chunks,
          (chunk, i) => {
            const chunkPath = join(dir, `chunk-${i}.wav`)
            const featPath = join(dir, `chunk-${i}.feat.params`)
            return writeChunk(wavPath, layout, chunk, chunkPath).pipe(
              Effect.zipRight(recognise(options.binary, chunkPath, options, featPath)),
              Effect.map((stdout) => parsePocketsphinxWords(stdout, chunk.start / SAMPLE_RATE)),
              // Only `parallelism` chunk copies sit on disk at a time.
              Effect.ensuring(Effect.promise(() => Promise.all([rm(chunkPath, { force: true }), rm(featPath, { force: true })])))
            )
          },
          { concurrency: options.parallelism }
        )
        return words.flat()
      }).pipe(Effect.scoped, Effect.withSpan("PocketsphinxTranscriber.transcribe"))
  })

/**
 * POCKETSPHINX_PATH: the binary. POCKETSPHINX_ARGS: decoder arguments, separated by spaces, in place of
 * DECODER_ARGS (empty: pocketsphinx's defaults). POCKETSPHINX_CHUNK_CMN=false: the model's initial mean.
 */
export const PocketsphinxTranscriberLive = Layer.effect(
  Transcriber,
  Effect.map(
    Config.all({
      binary: Config.string("POCKETSPHINX_PATH").pipe(Config.withDefault("pocketsphinx_continuous")),
      args: Config.string("POCKETSPHINX_ARGS").pipe(Config.withDefault(DECODER_ARGS.join(" "))),
      chunkCmn: Config.boolean("POCKETSPHINX_CHUNK_CMN").pipe(Config.withDefault(true))
    }),
    ({ args, binary, chunkCmn }) =>
      makePocketsphinxTranscriber({
        binary,
        parallelism: availableParallelism(),
        minChunkSeconds: 60,
        maxChunkSeconds: 300,
        decoderArgs: args.split(/\s+/).filter((arg) => arg !== ""),
        chunkCmn
      })
  )
)
