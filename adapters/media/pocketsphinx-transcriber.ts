// Offline speech recognition with Debian's pocketsphinx (`pocketsphinx_continuous -time yes`).
// It runs at 3 to 7x real time on one core (short clips pay for loading the model), so long audio is cut at quiet points into chunks that
// run in parallel, one per core, and the chunks' word times are shifted by where each chunk starts.
// The settings are tuned on real read speech (bench/recognition.ts); it remains the fallback engine.
import { Config, Effect, Layer } from "effect"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import type { TimedWord } from "../../domain/captions.ts"
import { ENGLISH_ONLY } from "../../domain/languages.ts"
import { Transcriber, type TranscriberShape } from "../../domain/ports/transcriber.ts"
import { replaceSoundAlikes, type SpokenTerm } from "../../domain/sound-alikes.ts"
import { spokenForms } from "../../domain/spoken-forms.ts"
import { roundMs } from "../../domain/spoken-words.ts"
import { runPocketsphinx } from "./pocketsphinx-process.ts"
import { DEFAULT_DICTIONARY, dictionaryKey, pronunciations, type PronouncingSources } from "./pronouncing-dictionary.ts"
import { chunksOf, readLayout, SAMPLE_RATE, writeChunk } from "./wav-chunks.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface PocketsphinxOptions {
  readonly binary: string
  /** How many recognisers run at once. */
  readonly parallelism: number
  /**
   * Chunks are never shorter than this: each pays for loading the model... With `chunkCmn` each starts
   * from its own cepstral mean, so a short chunk loses nothing to adapting to the voice (speech-eval's
   * ~5 s clips are scored one chunk each).
   */
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
  /** Where a vocabulary's terms and the heard words get their sounds; left out, Debian's dictionary and festival. */
  readonly pronouncing?: PronouncingSources
}

/**
 * Wider beams for the second (fwdflat) search than its defaults 1e-64 and 7e-29: on speech-eval, 2 of 81
 * words fewer wrong for about 20% more time. Wider first-pass beams (-beam, -pbeam, -wbeam) cost 60% more
 * time and gained nothing; -lw, -fillprob, -wip, -silprob, -maxhmmpf and -remove_noise no did no better
 * than 3 words either way (the noise of one 81-word set), so they stay at pocketsphinx's defaults.
 */
export const DECODER_ARGS: ReadonlyArray<string> = ["-fwdflatbeam", "1e-80", "-fwdflatwbeam", "1e-40"]

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


const chunkCount = (samples: number, options: PocketsphinxOptions): number => {
  const seconds = samples / SAMPLE_RATE
  const wanted = Math.max(options.parallelism, Math.ceil(seconds / options.maxChunkSeconds))
  return Math.max(1, Math.min(Math.floor(seconds / options.minChunkSeconds), wanted))
}

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

const phonesOf = (prons: ReadonlyMap<string, ReadonlyArray<string>>, word: string): ReadonlyArray<string> | undefined => {
  const key = dictionaryKey(word)
  return key === null ? undefined : prons.get(key)?.[0]?.split(" ")
}

/**
 * The language model cannot learn a word, so a vocabulary acts after recognition: heard words that sound
 * like a term become the term (domain/sound-alikes.ts). A term it cannot say is passed over; without the
 * dictionary the words stay as heard.
 */
const withVocabulary = (words: ReadonlyArray<TimedWord>, vocabulary: ReadonlyArray<string>, sources: PronouncingSources) =>
  Effect.gen(function*() {
    const termKeys = vocabulary.map((term) => spokenForms(term).map(dictionaryKey))
    const keys = new Set([...termKeys.flat(), ...words.map((w) => dictionaryKey(w.text))].filter((k) => k !== null))
    const prons = yield* pronunciations(sources, keys)
    const terms: Array<SpokenTerm> = vocabulary.flatMap((text, t) => {
      const parts = termKeys[t]!.map((key) => (key === null ? undefined : phonesOf(prons, key)))
      return parts.length > 0 && parts.every((p) => p !== undefined) ? [{ text, phones: [parts.flat()] }] : []
    })
    return replaceSoundAlikes(words, terms, (word) => phonesOf(prons, word))
  }).pipe(
    Effect.catchTag("WorkFailed", (failure) =>
      Effect.as(Effect.logWarning("vocabulary not applied", failure.message), words)),
    withSpan("PocketsphinxTranscriber.withVocabulary", { attributes: { terms: vocabulary.length } })
  )

export const makePocketsphinxTranscriber = (options: PocketsphinxOptions): TranscriberShape =>
  Transcriber.of({
    name: "pocketsphinx",
    model: "en-us",
    languages: ENGLISH_ONLY,
    transcribe: (wavPath, { vocabulary = [] } = {}) =>
      Effect.gen(function*() {
        const layout = yield* readLayout(wavPath)
        const chunks = yield* chunksOf(wavPath, layout, { count: chunkCount(layout.samples, options) })
        const dir = yield* Effect.acquireRelease(
          Effect.promise(() => mkdtemp(join(tmpdir(), "pocketsphinx-"))),
          (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
        )
        const words = yield* Effect.forEach(
          chunks,
          (chunk, i) => {
            const chunkPath = join(dir, `chunk-${i}.wav`)
            const featPath = join(dir, `chunk-${i}.feat.params`)
            // pocketsphinx reads only files: the /dev/stdin it could read instead cannot be opened on the
            // socket Node gives a child as stdin.
            return writeChunk(wavPath, layout, chunk, chunkPath).pipe(
              Effect.zipRight(recognise(options.binary, chunkPath, options, featPath)),
              Effect.map((stdout) => parsePocketsphinxWords(stdout, chunk.start / SAMPLE_RATE)),
              // Only `parallelism` chunk copies sit on disk at a time.
              Effect.ensuring(Effect.promise(() => Promise.all([rm(chunkPath, { force: true }), rm(featPath, { force: true })])))
            )
          },
          { concurrency: options.parallelism }
        )
        const heard = words.flat()
        return vocabulary.length === 0
          ? heard
          : yield* withVocabulary(heard, vocabulary, options.pronouncing ?? { dictionary: DEFAULT_DICTIONARY, festival: "festival" })
      }).pipe(Effect.scoped, withSpan("PocketsphinxTranscriber.transcribe"))
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
        // A minute of a caption video is two chunks on two cores: as many words right as in one chunk (136
        // errors against 135 of 243 words, speech-eval's clips joined in three orders), in 0.58x the time.
        minChunkSeconds: 15,
        maxChunkSeconds: 300,
        decoderArgs: args.split(/\s+/).filter((arg) => arg !== ""),
        chunkCmn
      })
  )
)
