// Speech recognition with whisper.cpp, through the prebuilt Node addon that @fugood/whisper.node uses.
// We depend on the addon's platform package (@fugood/node-whisper-linux-x64, 2.8 MB, an optional
// dependency so other platforms still install) and load it as the wrapper does: the wrapper itself
// would also install its CUDA and Vulkan builds (266 MB) on every `npm ci`.
import { Effect, Layer, Option, SynchronizedRef } from "effect"
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { stat } from "node:fs/promises"
import { createRequire } from "node:module"
import { basename } from "node:path"
import type { TimedWord } from "../../domain/captions.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { ENGLISH_ONLY, WHISPER_LANGUAGES } from "../../domain/languages.ts"
import { vocabularyPrompt } from "../../domain/vocabulary.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface WhisperConfig {
  /** A whisper.cpp ggml model file, e.g. ggml-base.en-q5_1.bin. */
  readonly modelPath: string
  /** The model's published SHA-1; when given, a file with another digest is refused. */
  readonly sha1?: string
}

/** One segment; times are milliseconds. */
export interface WhisperSegment {
  readonly text: string
  readonly t0: number
  readonly t1: number
}

/** The part of the addon's API this adapter uses (see @fugood/whisper.node lib/binding.ts). */
interface WhisperContext {
  readonly transcribeFile: (
    path: string,
    options: { language: string; tokenTimestamps: boolean; maxLen: number; prompt?: string }
  ) => {
    readonly stop: () => Promise<void>
    readonly promise: Promise<{ readonly segments: ReadonlyArray<WhisperSegment> }>
  }
  readonly release: () => Promise<void>
}
interface WhisperAddon {
  readonly WhisperContext: new (options: { filePath: string; useGpu: boolean }) => WhisperContext
}

const ADDON = `@fugood/node-whisper-${process.platform}-${process.arch}`

/** Whether this platform's addon is installed (it is an optional dependency). */
export const whisperAddonInstalled = (): boolean => {
  try {
    createRequire(import.meta.url).resolve(ADDON)
    return true
  } catch {
    return false
  }
}

const loadAddon = Effect.try({
  try: () => createRequire(import.meta.url)(ADDON) as WhisperAddon,
  catch: (e) =>
    new WorkFailed({
      message: `whisper.cpp's Node addon ${ADDON} is not installed (${e instanceof Error ? e.message.split("\n")[0] : e}): ` +
        `install it with npm, or set TRANSCRIBER=pocketsphinx.`
    })
})

const sha1Of = (path: string) =>
  Effect.promise(async () => {
    const hash = createHash("sha1")
    for await (const piece of createReadStream(path)) hash.update(piece as Buffer)
    return hash.digest("hex")
  })

/** Refuses a missing, unreadable or (when a digest is configured) different model file before loading it. */
const verifyModel = (config: WhisperConfig) =>
  Effect.gen(function*() {
    const path = config.modelPath
    const info = yield* Effect.tryPromise({
      try: () => stat(path),
      catch: (e) =>
        new WorkFailed({
          message: (e as NodeJS.ErrnoException).code === "ENOENT"
            ? `The whisper model ${path} does not exist: set WHISPER_MODEL to the path of a ggml model file.`
            : `The whisper model ${path} cannot be read: ${(e as Error).message}`
        })
    })
    if (!info.isFile()) {
      return yield* new WorkFailed({ message: `The whisper model ${path} is not a file: set WHISPER_MODEL to a ggml model file.` })
    }
    if (config.sha1 === undefined) return
    const expected = config.sha1.trim().toLowerCase()
    const actual = yield* sha1Of(path)
    if (actual !== expected) {
      return yield* new WorkFailed({
        message: `The whisper model ${path} has SHA-1 ${actual}, but ${expected} was expected: ` +
          `the file is damaged or is another model. Replace it, or correct WHISPER_MODEL_SHA1.`
      })
    }
  })

const loadModel = (config: WhisperConfig) =>
  Effect.gen(function*() {
    yield* verifyModel(config)
    const addon = yield* loadAddon
    return yield* Effect.try({
      // The CPU addon has no GPU backend; loading reads the whole model synchronously.
      try: () => new addon.WhisperContext({ filePath: config.modelPath, useGpu: false }),
      catch: (e) =>
        new WorkFailed({
          message: `whisper.cpp could not load ${config.modelPath} (${e instanceof Error ? e.message : e}): ` +
            `is it a whisper.cpp ggml model?`
        })
    })
  }).pipe(withSpan("WhisperTranscriber.loadModel"))

/** Marks whisper writes instead of speech: [BLANK_AUDIO], [Music], (upbeat music). */
const OPENS = /^[[(]/
const CLOSES = /[\])][.,!?]*$/

const dropAnnotations = (words: ReadonlyArray<TimedWord>): Array<TimedWord> => {
  const kept: Array<TimedWord> = []
  for (let i = 0; i < words.length; i++) {
    const close = OPENS.test(words[i]!.text) ? words.findIndex((w, j) => j >= i && CLOSES.test(w.text)) : -1
    if (close === -1) kept.push(words[i]!)
    else i = close
  }
  return kept
}

/**
 * Joins whisper's token segments (one token each with `maxLen: 1`) into words: a token that starts
 * with a space begins a word, any other token (a word piece, punctuation) extends the one before.
 */
export const wordsFromSegments = (segments: ReadonlyArray<WhisperSegment>): Array<TimedWord> => {
  const words: Array<TimedWord> = []
  for (const segment of segments) {
    if (segment.text.trim() === "") continue
    const last = words[words.length - 1]
    if (last !== undefined && !/^\s/.test(segment.text)) {
      words[words.length - 1] = { ...last, text: last.text + segment.text.trimEnd(), end: segment.t1 / 1000 }
    } else {
      words.push({ text: segment.text.trim(), start: segment.t0 / 1000, end: segment.t1 / 1000 })
    }
  }
  return dropAnnotations(words)
}

/** An English-only model (`ggml-base.en.bin`, `ggml-tiny.en-q5_1.bin`) knows English alone. */
export const whisperLanguages = (modelPath: string): ReadonlyArray<string> =>
  /\.en([.-]|$)/.test(basename(modelPath)) ? ENGLISH_ONLY : WHISPER_LANGUAGES

/**
 * `auto` asks a multilingual model to detect the language; an English-only one is always told English.
 * The vocabulary goes in as the initial prompt: whisper then favours those spellings.
 */
const transcribeWith = (context: WhisperContext, wavPath: string, language: string, prompt: string | undefined) =>
  Effect.async<ReadonlyArray<WhisperSegment>, WorkFailed>((resume) => {
    const job = context.transcribeFile(wavPath, { language, tokenTimestamps: true, maxLen: 1, ...(prompt === undefined ? {} : { prompt }) })
    job.promise.then(
      (result) => resume(Effect.succeed(result.segments)),
      (e: unknown) =>
        resume(Effect.fail(new WorkFailed({ message: `whisper.cpp could not transcribe the audio: ${e instanceof Error ? e.message : e}` })))
    )
    return Effect.promise(() => job.stop())
  })

/** Loads the model on first use, once; a failed load is tried again by the next transcription. */
export const WhisperTranscriberLive = (config: WhisperConfig) =>
  Layer.scoped(
    Transcriber,
    Effect.gen(function*() {
      const model = yield* SynchronizedRef.make(Option.none<WhisperContext>())
      yield* Effect.addFinalizer(() =>
        SynchronizedRef.get(model).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.void,
            onSome: (context) => Effect.promise(() => context.release())
          }))
        )
      )
      const loaded = SynchronizedRef.modifyEffect(model, (current) =>
        Option.match(current, {
          onSome: (context) => Effect.succeed([context, current] as const),
          onNone: () => Effect.map(loadModel(config), (context) => [context, Option.some(context)] as const)
        }))
      return Transcriber.of({
        name: "whisper",
        model: basename(config.modelPath),
        languages: whisperLanguages(config.modelPath),
        transcribe: (wavPath, { language, vocabulary } = {}) =>
          loaded.pipe(
            Effect.flatMap((context) =>
              transcribeWith(
                context,
                wavPath,
                language ?? (whisperLanguages(config.modelPath).length === 1 ? "en" : "auto"),
                vocabularyPrompt(vocabulary ?? [])
              )
            ),
            Effect.map(wordsFromSegments),
            withSpan("WhisperTranscriber.transcribe")
          )
      })
    })
  )
