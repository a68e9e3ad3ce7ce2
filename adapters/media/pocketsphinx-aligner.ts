// Forced alignment with pocketsphinx_batch: each stretch of audio is decoded against a grammar that
// is its words in order (optional silences and noises between them), so the search answers only
// where each word lies. One process handles many stretches (a control file lists their frames and
// grammars); the stretches are shared among the cores. The dictionary holds only the script's words:
// those of pocketsphinx's own dictionary, and the rest as festival's lexicon (or its letter-to-sound
// rules) says them. A stretch the strict grammar cannot fit (a word skipped, a cue cut short) is decoded
// again with every word optional; what still finds no place is left for the caller to interpolate.
import { Config, Effect, Layer } from "effect"
import { createReadStream } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { WorkFailed } from "../../domain/errors.ts"
import { Aligner, type AlignerShape, type AlignmentRequest } from "../../domain/ports/aligner.ts"
import type { WordMark } from "../../domain/spoken-words.ts"
import { runPocketsphinx } from "./pocketsphinx-process.ts"
import { DEFAULT_DICTIONARY, dictionaryKey, pronunciations, type PronouncingSources } from "./pronouncing-dictionary.ts"
import { readWavInfo } from "./wav-file.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface PocketsphinxAlignerOptions extends PronouncingSources {
  /** pocketsphinx_batch. */
  readonly binary: string
  readonly parallelism: number
}

/** pocketsphinx's frames: 100 a second. */
const FRAMES_PER_SECOND = 100
/** The chance of passing a word by, in the second decode of a stretch the strict grammar could not fit. */
const SKIP_PROBABILITY = 0.05

/** One stretch's grammar: its tokens in a row, each passed by with `skip` chance (0: none). */
export const linearGrammar = (tokens: ReadonlyArray<string>, skip: number): string =>
  [
    "FSG_BEGIN script",
    `NUM_STATES ${tokens.length + 1}`,
    "START_STATE 0",
    `FINAL_STATE ${tokens.length}`,
    ...tokens.flatMap((token, i) =>
      skip === 0 ? [`TRANSITION ${i} ${i + 1} 1.0 ${token}`] : [`TRANSITION ${i} ${i + 1} ${1 - skip} ${token}`, `TRANSITION ${i} ${i + 1} ${skip}`]
    ),
    "FSG_END",
    ""
  ].join("\n")

/** A word of a hypothesis and its frames (relative to its utterance), end exclusive. */
export interface SegmentWord {
  readonly word: string
  readonly startFrame: number
  readonly endFrame: number
}

/**
 * Parses `-hypseg` lines: `uttid S s T t A a L l  sf ascr lscr word ... endframe`. An utterance the
 * grammar could not fit has no words.
 */
export const parseHypseg = (text: string): ReadonlyMap<string, ReadonlyArray<SegmentWord>> => {
  const found = new Map<string, ReadonlyArray<SegmentWord>>()
  for (const line of text.split("\n")) {
    const parts = line.trim().split(/\s+/)
    if (parts.length < 10 || parts[1] !== "S") continue
    const rest = parts.slice(9)
    const words: Array<SegmentWord> = []
    for (let k = 0; k + 4 < rest.length; k += 4) {
      words.push({ startFrame: Number(rest[k]), word: rest[k + 3]!, endFrame: Number(rest[k + 4]) })
    }
    found.set(parts[0]!, words)
  }
  return found
}

/** Noises, silences and null transitions in a hypothesis. */
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+|\(NULL\))$/

interface Utterance {
  readonly id: string
  readonly request: number
  /** The grammar's tokens, and for each the index of its written word. */
  readonly tokens: ReadonlyArray<string>
  readonly owners: ReadonlyArray<number>
  readonly startFrame: number
  readonly endFrame: number
}

/** Word marks of one utterance's hypothesis: the tokens found in order, each given to its written word. */
const marksOf = (utterance: Utterance, words: ReadonlyArray<SegmentWord>, wordCount: number): Array<WordMark> => {
  const marks: Array<{ start?: number; speechEnd?: number }> = Array.from({ length: wordCount }, () => ({}))
  let next = 0
  for (const found of words) {
    const token = found.word.replace(/\(\d+\)$/, "")
    if (FILLER.test(token)) continue
    let at = next
    while (at < utterance.tokens.length && utterance.tokens[at] !== token) at++
    if (at === utterance.tokens.length) continue
    next = at + 1
    const mark = marks[utterance.owners[at]!]!
    const start = (utterance.startFrame + found.startFrame) / FRAMES_PER_SECOND
    mark.start ??= start
    mark.speechEnd = (utterance.startFrame + found.endFrame) / FRAMES_PER_SECOND
  }
  return marks
}

/** The level of each 10 ms frame of 16-bit mono PCM, in dB below full scale, read as a stream. */
const frameLevels = (wavPath: string, dataOffset: number, sampleRate: number) =>
  Effect.promise(async () => {
    const frame = sampleRate / FRAMES_PER_SECOND
    const levels: Array<number> = []
    let sum = 0
    let count = 0
    let carry: Buffer = Buffer.alloc(0)
    for await (const piece of createReadStream(wavPath, { start: dataOffset })) {
      const bytes: Buffer = carry.length === 0 ? (piece as Buffer) : Buffer.concat([carry, piece as Buffer])
      const whole = bytes.length - (bytes.length % 2)
      for (let at = 0; at < whole; at += 2) {
        sum += bytes.readInt16LE(at) ** 2
        if (++count === frame) {
          levels.push(10 * Math.log10(sum / frame / 32768 ** 2 + 1e-12))
          sum = 0
          count = 0
        }
      }
      carry = bytes.subarray(whole)
    }
    return levels
  })

/** A frame this far below the loud frames of the audio is silence. */
const SILENCE_BELOW_LOUD_DB = 35

/** A pause: this many silent frames in a row. Shorter silences are the closure of a "p", "t" or "k". */
const PAUSE_FRAMES = 10
/** A start moved out of a pause keeps this much of it, for the closure of a first "p", "t" or "k". */
const CLOSURE_FRAMES = 4

/**
 * The acoustic model readily stretches a word's quiet first sound (the "th" of "the") back over the
 * pause before it; a start inside a pause moves to just before the sound resumes, within the word.
 */
const startsAtSound = (marks: Array<WordMark>, levels: ReadonlyArray<number>): Array<WordMark> => {
  const sorted = levels.filter((l) => l > -100).sort((a, b) => a - b)
  const loud = sorted[Math.floor(sorted.length * 0.95)] ?? 0
  const silent = (frame: number) => (levels[frame] ?? 0) < loud - SILENCE_BELOW_LOUD_DB
  return marks.map((mark) => {
    if (mark.start === undefined || mark.speechEnd === undefined) return mark
    let frame = Math.round(mark.start * FRAMES_PER_SECOND)
    const last = Math.round(mark.speechEnd * FRAMES_PER_SECOND) - 3
    const first = frame
    while (frame < last && silent(frame)) frame++
    return frame < last && frame - first >= PAUSE_FRAMES ? { ...mark, start: (frame - CLOSURE_FRAMES) / FRAMES_PER_SECOND } : mark
  })
}

export const makePocketsphinxAligner = (options: PocketsphinxAlignerOptions): AlignerShape =>
  Aligner.of({
    align: (wavPath, requests) =>
      Effect.gen(function*() {
        const wav = yield* Effect.tryPromise({
          try: () => readWavInfo(wavPath),
          catch: (e) => new WorkFailed({ message: `The audio to align is unreadable: ${String(e)}` })
        })
        const keys = new Set(requests.flatMap((r) => r.words.flat()).map(dictionaryKey).filter((k) => k !== null))
        const entries = yield* pronunciations(options, keys)
        const dictionary = [...entries].flatMap(([word, prons]) => prons.map((p, i) => `${i === 0 ? word : `${word}(${i + 1})`} ${p}`))

        const utterances: Array<Utterance> = requests.flatMap((request: AlignmentRequest, r) => {
          const pairs = request.words.flatMap((forms, w) =>
            forms.map(dictionaryKey).filter((k): k is string => k !== null && entries.has(k)).map((token) => ({ token, w }))
          )
          const startFrame = Math.max(0, Math.floor(request.start * FRAMES_PER_SECOND))
          const endFrame = Math.min(Math.floor(wav.durationSeconds * FRAMES_PER_SECOND), Math.ceil(request.end * FRAMES_PER_SECOND))
          return pairs.length === 0 || endFrame - startFrame < pairs.length * 3
            ? []
            : [{ id: `u${r}`, request: r, tokens: pairs.map((p) => p.token), owners: pairs.map((p) => p.w), startFrame, endFrame }]
        })

        const dir = yield* Effect.acquireRelease(
          Effect.promise(() => mkdtemp(join(tmpdir(), "align-"))),
          (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
        )
        const dictPath = join(dir, "script.dict")
        yield* Effect.promise(() => writeFile(dictPath, `${dictionary.join("\n")}\n`))
        const audio = basename(wavPath).replace(/\.wav$/, "")
        if (`${audio}.wav` !== basename(wavPath)) return yield* Effect.die(new Error(`${wavPath}: the aligner reads .wav files`))

        /** Decodes the utterances with grammars that skip words at `skip`; their hypotheses by id. */
        const decode = (batch: ReadonlyArray<Utterance>, skip: number, pass: string) =>
          Effect.forEach(
            groups(batch, options.parallelism),
            (group, g) =>
              Effect.gen(function*() {
                const name = `${pass}-${g}`
                yield* Effect.promise(() =>
                  Promise.all([
                    ...group.map((u) => writeFile(join(dir, `${name}-${u.id}.fsg`), linearGrammar(u.tokens, skip))),
                    writeFile(join(dir, `${name}.ctl`), group.map((u) => `${audio} ${u.startFrame} ${u.endFrame} ${u.id}\n`).join("")),
                    writeFile(join(dir, `${name}.fsgctl`), group.map((u) => `${name}-${u.id}\n`).join(""))
                  ])
                )
                yield* runPocketsphinx(options.binary, [
                  "-adcin", "yes", "-adchdr", String(wav.dataOffset), "-cepdir", dirname(wavPath), "-cepext", ".wav",
                  "-ctl", join(dir, `${name}.ctl`), "-fsgctl", join(dir, `${name}.fsgctl`), "-fsgdir", dir, "-fsgext", ".fsg",
                  "-dict", dictPath, "-hypseg", join(dir, `${name}.seg`), "-logfn", "/dev/null",
                  // Its voice activity detection drops silent frames, and every time after them would shift.
                  "-remove_silence", "no"
                ])
                return parseHypseg(yield* Effect.promise(() => readFile(join(dir, `${name}.seg`), "utf8")))
              }),
            { concurrency: options.parallelism }
          ).pipe(Effect.map((maps) => new Map(maps.flatMap((m) => [...m]))))

        const strict = yield* decode(utterances, 0, "strict")
        const unfit = utterances.filter((u) => (strict.get(u.id) ?? []).length === 0)
        const loose = unfit.length === 0 ? new Map<string, ReadonlyArray<SegmentWord>>() : yield* decode(unfit, SKIP_PROBABILITY, "loose")
        const byRequest = new Map(utterances.map((u) => [u.request, u]))
        const levels = yield* frameLevels(wavPath, wav.dataOffset, wav.sampleRate)
        return requests.map((request, r) => {
          const utterance = byRequest.get(r)
          if (utterance === undefined) return request.words.map(() => ({}))
          const words = (strict.get(utterance.id) ?? []).length > 0 ? strict.get(utterance.id)! : loose.get(utterance.id) ?? []
          return startsAtSound(marksOf(utterance, words, request.words.length), levels)
        })
      }).pipe(Effect.scoped, withSpan("PocketsphinxAligner.align", { attributes: { requests: requests.length } }))
  })

/** Contiguous groups of about equal size, at most `count` of them. */
const groups = <A>(items: ReadonlyArray<A>, count: number): ReadonlyArray<ReadonlyArray<A>> => {
  const size = Math.ceil(items.length / Math.max(1, count))
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** POCKETSPHINX_BATCH_PATH, POCKETSPHINX_DICT and FESTIVAL_PATH, each with Debian's default. */
export const PocketsphinxAlignerLive = Layer.effect(
  Aligner,
  Effect.map(
    Config.all({
      binary: Config.string("POCKETSPHINX_BATCH_PATH").pipe(Config.withDefault("pocketsphinx_batch")),
      dictionary: Config.string("POCKETSPHINX_DICT").pipe(Config.withDefault(DEFAULT_DICTIONARY)),
      festival: Config.string("FESTIVAL_PATH").pipe(Config.withDefault("festival"))
    }),
    (config) => makePocketsphinxAligner({ ...config, parallelism: availableParallelism() })
  )
)
