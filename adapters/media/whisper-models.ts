// The whisper.cpp ggml models the service offers, how they are fetched into MODELS_DIR, and which one
// is installed. `npm run models` (src/models.ts) is the command line over this; the transcriber's
// `auto` choice asks findInstalledModel which model to load.
//
// Names, files, sizes and SHA-1s are the published ones: SHA-1 from the model card of
// huggingface.co/ggerganov/whisper.cpp (the table ggml-org/whisper.cpp's models/README.md gives for the
// unquantized models), byte sizes from that repository's file listing (Hugging Face's model API).
import { HttpClient, HttpClientRequest, type HttpClientError } from "@effect/platform"
import { Config, Data, Duration, Effect, Option, type Scope, Stream } from "effect"
import { createHash, type Hash } from "node:crypto"
import { createReadStream } from "node:fs"
import { mkdir, open, rename, rm, stat } from "node:fs/promises"
import { join, resolve } from "node:path"
import { withSpan } from "../../src/kernel/spans.ts"

/** Where the published models are downloaded from: `<home>/<file>`. */
export const PUBLIC_HOME = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main"

/** What setup.sh and the image pull: English, small enough for 2 cores, far better than pocketsphinx. */
export const DEFAULT_WHISPER_MODEL = "whisper-base.en-q5_1"

/** Where the service keeps its files unless DATA_DIR says otherwise (src/roles.ts); MODELS_DIR defaults to its `models` folder. */
export const DEFAULT_DATA_DIR = "./data"

/** MODELS_DIR, else DATA_DIR/models, as an absolute path. */
export const modelsDirConfig = Config.nonEmptyString("MODELS_DIR").pipe(
  Config.orElse(() => Config.map(Config.withDefault(Config.string("DATA_DIR"), DEFAULT_DATA_DIR), (dataDir) => join(dataDir, "models"))),
  Config.map((dir) => resolve(dir))
)

export interface WhisperModel {
  /** What `npm run models -- pull` takes, e.g. whisper-base.en-q5_1. */
  readonly name: string
  /** The file at the public home and in MODELS_DIR, e.g. ggml-base.en-q5_1.bin. */
  readonly file: string
  readonly bytes: number
  /** The published SHA-1 of the file, lower-case hex. */
  readonly sha1: string
  readonly englishOnly: boolean
  readonly quantization: "f16" | "q8_0" | "q5_1"
  /** Expected speed on 2 cores, as a real-time factor (seconds of work per second of audio). */
  readonly speed: string
}

// Speeds are estimates, not measurements: no model weights could be downloaded where this was written.
// They scale whisper.cpp's published CPU benchmarks (github.com/ggml-org/whisper.cpp/issues/89: encoding
// one 30 s window takes about 0.5 s for tiny, 1.3 s for base and 4 s for small on 4 AVX2 threads) to 2
// threads, plus decoding with per-token timestamps. Fly's shared-cpu vCPUs are throttled under sustained
// load and can be several times slower. Quantized files run at about the speed of f16 on the CPU and
// need less memory; q5_1 loses a little accuracy, q8_0 hardly any.
const TINY = "RTF ≈ 0.03–0.08 (12–30× faster than real time), estimate"
const BASE = "RTF ≈ 0.08–0.2 (5–12× faster than real time), estimate"
const SMALL = "RTF ≈ 0.25–0.5 (2–4× faster than real time), estimate"

const model = (
  family: string,
  quantization: WhisperModel["quantization"],
  bytes: number,
  sha1: string,
  speed: string
): WhisperModel => {
  const stem = quantization === "f16" ? family : `${family}-${quantization}`
  return { name: `whisper-${stem}`, file: `ggml-${stem}.bin`, bytes, sha1, englishOnly: family.endsWith(".en"), quantization, speed }
}

/**
 * The offered models, in the order findInstalledModel prefers them: larger first (accuracy grows with
 * size), at one size English-only first (the pipeline transcribes English), then f16, q8_0, q5_1.
 */
export const WHISPER_MODELS: ReadonlyArray<WhisperModel> = [
  model("small.en", "f16", 487_614_201, "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022", SMALL),
  model("small.en", "q8_0", 264_477_561, "9d75ff4ccfa0a8217870d7405cf8cef0a5579852", SMALL),
  model("small.en", "q5_1", 190_098_681, "20f54878d608f94e4a8ee3ae56016571d47cba34", SMALL),
  model("small", "f16", 487_601_967, "55356645c2b361a969dfd0ef2c5a50d530afd8d5", SMALL),
  model("small", "q8_0", 264_464_607, "bcad8a2083f4e53d648d586b7dbc0cd673d8afad", SMALL),
  model("small", "q5_1", 190_085_487, "6fe57ddcfdd1c6b07cdcc73aaf620810ce5fc771", SMALL),
  model("base.en", "f16", 147_964_211, "137c40403d78fd54d454da0f9bd998f78703390c", BASE),
  model("base.en", "q8_0", 81_781_811, "bb1574182e9b924452bf0cd1510ac034d323e948", BASE),
  model("base.en", "q5_1", 59_721_011, "d26d7ce5a1b6e57bea5d0431b9c20ae49423c94a", BASE),
  model("base", "f16", 147_951_465, "465707469ff3a37a2b9b8d8f89f2f99de7299dac", BASE),
  model("base", "q8_0", 81_768_585, "7bb89bb49ed6955013b166f1b6a6c04584a20fbe", BASE),
  model("base", "q5_1", 59_707_625, "a3733eda680ef76256db5fc5dd9de8629e62c5e7", BASE),
  model("tiny.en", "f16", 77_704_715, "c78c86eb1a8faa21b369bcd33207cc90d64ae9df", TINY),
  model("tiny.en", "q8_0", 43_550_795, "802d6668e7d411123e672abe4cb6c18f12306abb", TINY),
  model("tiny.en", "q5_1", 32_166_155, "3fb92ec865cbbc769f08137f22470d6b66e071b6", TINY)
]

/** A catalogue model by its name (`whisper-base.en`, or `base.en`) or its file name. */
export const findWhisperModel = (nameOrFile: string): Option.Option<WhisperModel> =>
  Option.fromNullable(
    WHISPER_MODELS.find((m) => m.name === nameOrFile || m.name === `whisper-${nameOrFile}` || m.file === nameOrFile)
  )

export class ModelPullFailed extends Data.TaggedError("ModelPullFailed")<{ readonly message: string }> {}

/** What pullModel fetches: a catalogue model, or any file of the home with its published SHA-1. */
export interface ModelFile {
  readonly file: string
  readonly sha1: string
  /** Known for catalogue models; otherwise the server's Content-Length gives the total. */
  readonly bytes?: number
}

export interface PullProgress {
  /** Bytes in the part file so far, a resumed start included. */
  readonly bytes: number
  readonly total: number | null
  readonly percent: number | null
  /** Over this run's transfer only. */
  readonly bytesPerSecond: number
  /** Where this run started: 0, or the size of the part it resumed. */
  readonly resumedFrom: number
}

export interface PullOptions {
  readonly modelsDir: string
  /** The public home or a mirror of it: `<baseUrl>/<file>`. */
  readonly baseUrl: string
  readonly onProgress?: (progress: PullProgress) => Effect.Effect<void>
  /** How long the server may take to answer with headers (redirects included). */
  readonly connectTimeout?: Duration.DurationInput
  /** How long the body may send nothing before the download counts as stalled. */
  readonly stallTimeout?: Duration.DurationInput
}

export interface PullResult {
  readonly path: string
  /** False when the file was already there with the right digest. */
  readonly downloaded: boolean
}

const failed = (message: string) => new ModelPullFailed({ message })

const ioFailure = (what: string) => (e: unknown) =>
  failed(`Could not ${what}: ${e instanceof Error ? e.message : String(e)}`)

/** The file's size, or none when it does not exist. */
const sizeOf = (path: string) =>
  Effect.tryPromise({
    try: () => stat(path).then((info) => Option.some(info.size), (e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return Option.none<number>()
      throw e
    }),
    catch: ioFailure(`read ${path}`)
  })

/** Feeds the file into the hash (a resumed part, or a file already present). */
const hashFile = (path: string, hash: Hash) =>
  Effect.tryPromise({
    try: async () => {
      for await (const piece of createReadStream(path)) hash.update(piece as Buffer)
      return hash
    },
    catch: ioFailure(`read ${path}`)
  })

const sha1OfFile = (path: string) => Effect.map(hashFile(path, createHash("sha1")), (hash) => hash.digest("hex"))

const remove = (path: string) => Effect.promise(() => rm(path, { force: true }))

/** `fetch failed` hides the reason (ENOTFOUND, ECONNREFUSED, a TLS error) in its cause. */
const reasonOf = (error: HttpClientError.HttpClientError): string => {
  const causes: Array<string> = []
  let cause: unknown = error.cause
  while (cause instanceof Error && causes.length < 4) {
    const code = (cause as NodeJS.ErrnoException).code
    causes.push(code === undefined ? cause.message : `${cause.message} (${code})`)
    cause = cause.cause
  }
  return causes.length > 0 ? causes.join(": ") : error.message
}

/** `bytes START-END/TOTAL` of a 206 answer: START. */
const rangeStart = (header: string | undefined): number | null => {
  const match = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(header?.trim() ?? "")
  return match === null ? null : Number(match[1])
}

// The TOTAL of a 416 answer's `bytes */TOTAL`.
const unsatisfiedTotal = (header: string | undefined): number | null => {
  const match = /^bytes \*\/(\d+)$/.exec(header?.trim() ?? "")
  return match === null ? null : Number(match[1])
}

/** `12.3 MiB`, for lists and progress lines. */
export const formatMiB = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`

/**
 * Downloads `<baseUrl>/<file>` into `<modelsDir>/<file>`: through `<file>.part` (resumed with a Range
 * request when it exists), SHA-1 over the whole file, renamed into place only when the digest is the
 * published one. A wrong file is deleted and refused; a stalled or failed transfer keeps the part, so
 * running again resumes it. A file already present with the right digest is not downloaded again.
 */
export const pullModel = (
  model: ModelFile,
  options: PullOptions
): Effect.Effect<PullResult, ModelPullFailed, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const target = join(options.modelsDir, model.file)
    const part = `${target}.part`
    const url = `${options.baseUrl.replace(/\/+$/, "")}/${model.file}`
    const expected = model.sha1.trim().toLowerCase()
    const connectTimeout = options.connectTimeout ?? Duration.seconds(30)
    const stallTimeout = options.stallTimeout ?? Duration.seconds(60)
    yield* Effect.tryPromise({ try: () => mkdir(options.modelsDir, { recursive: true }), catch: ioFailure(`create ${options.modelsDir}`) })

    const present = yield* sizeOf(target)
    if (Option.isSome(present) && (model.bytes === undefined || present.value === model.bytes)) {
      if ((yield* sha1OfFile(target)) === expected) return { path: target, downloaded: false }
    }

    // A part longer than the model cannot be its beginning.
    let resumable = Option.getOrElse(yield* sizeOf(part), () => 0)
    if (model.bytes !== undefined && resumable > model.bytes) {
      yield* remove(part)
      resumable = 0
    }

    /** One GET from `offset`; answers the hash of the whole part once the body has ended. */
    const transfer = (offset: number): Effect.Effect<Hash, ModelPullFailed, Scope.Scope> =>
      Effect.gen(function*() {
        // A part as long as the model needs only its digest (a run stopped before the rename).
        if (offset > 0 && offset === model.bytes) return yield* hashFile(part, createHash("sha1"))
        const request = HttpClientRequest.get(url).pipe(
          // Offsets count stored bytes, so the body must not be compressed in transit.
          HttpClientRequest.setHeader("accept-encoding", "identity"),
          offset > 0 ? HttpClientRequest.setHeader("range", `bytes=${offset}-`) : (r) => r
        )
        const response = yield* HttpClient.withScope(client).execute(request).pipe(
          Effect.mapError((e) => failed(`Could not reach ${url}: ${reasonOf(e)}`)),
          Effect.timeoutFail({
            duration: connectTimeout,
            onTimeout: () =>
              failed(`${url} did not answer within ${Duration.format(connectTimeout)}: is the network (or the mirror) reachable?`)
          })
        )
        if (offset > 0 && response.status === 416) {
          // Nothing after the part: it is the whole file when the server's total is its size; otherwise
          // the server's file is shorter, so the part is not its beginning.
          if (unsatisfiedTotal(response.headers["content-range"]) === offset) return yield* hashFile(part, createHash("sha1"))
          yield* remove(part)
          return yield* transfer(0)
        }
        const resumed = offset > 0 && response.status === 206
        if (response.status !== 200 && !resumed) {
          return yield* failed(`${url} answered ${response.status}${response.status === 404 ? " (no such file there)" : ""}.`)
        }
        if (resumed && rangeStart(response.headers["content-range"]) !== offset) {
          return yield* failed(`${url} answered a range other than the one asked for (${response.headers["content-range"] ?? "no Content-Range"}).`)
        }
        // A 200 to a Range request is the whole file: start over.
        const start = resumed ? offset : 0
        const hash = start > 0 ? yield* hashFile(part, createHash("sha1")) : createHash("sha1")
        const length = Number(response.headers["content-length"])
        const total = model.bytes ?? (Number.isFinite(length) ? start + length : null)
        const handle = yield* Effect.acquireRelease(
          Effect.tryPromise({ try: () => open(part, start > 0 ? "a" : "w"), catch: ioFailure(`write ${part}`) }),
          (handle) => Effect.promise(() => handle.close())
        )
        const began = Date.now()
        let bytes = start
        yield* response.stream.pipe(
          Stream.mapError((e) => failed(`The download from ${url} broke off: ${reasonOf(e)}. Run the same command again to resume.`)),
          Stream.timeoutFail(
            () =>
              failed(
                `The download from ${url} stalled: no data for ${Duration.format(stallTimeout)}. ` +
                  `What arrived is kept in ${part}; run the same command again to resume.`
              ),
            stallTimeout
          ),
          // One write at a time: the next piece is read only once this one is on disk (backpressure).
          Stream.runForEach((piece) =>
            Effect.gen(function*() {
              if (total !== null && bytes + piece.length > total) {
                yield* remove(part)
                return yield* failed(`${url} sent more than the ${total} bytes of ${model.file}: it is another file.`)
              }
              yield* Effect.tryPromise({ try: () => handle.writeFile(piece), catch: ioFailure(`write ${part}`) })
              hash.update(piece)
              bytes += piece.length
              if (options.onProgress !== undefined) {
                const seconds = Math.max((Date.now() - began) / 1000, 0.001)
                yield* options.onProgress({
                  bytes,
                  total,
                  percent: total === null || total === 0 ? null : (bytes / total) * 100,
                  bytesPerSecond: (bytes - start) / seconds,
                  resumedFrom: start
                })
              }
            })
          )
        )
        if (total !== null && bytes < total) {
          return yield* failed(
            `The download from ${url} ended after ${bytes} of ${total} bytes. ` +
              `What arrived is kept in ${part}; run the same command again to resume.`
          )
        }
        return hash
      })

    const hash = yield* Effect.scoped(transfer(resumable))
    const actual = hash.digest("hex")
    if (actual !== expected) {
      yield* remove(part)
      return yield* failed(
        `${model.file} from ${url} has SHA-1 ${actual}, but the published SHA-1 is ${expected}: ` +
          `the download is damaged or the server holds another file. It was deleted.`
      )
    }
    // Same folder, so the rename is atomic: the service never sees a half-written model.
    yield* Effect.tryPromise({ try: () => rename(part, target), catch: ioFailure(`move ${part} to ${target}`) })
    return { path: target, downloaded: true }
  }).pipe(withSpan("WhisperModels.pull", { attributes: { file: model.file, baseUrl: options.baseUrl } }))

export interface InstalledModel extends WhisperModel {
  readonly path: string
  /** How the file was checked: its size, or (when asked) its SHA-1 too. */
  readonly verifiedBy: "size" | "sha1"
}

/** A catalogue model's state in the folder, for `models list`. */
export type ModelState =
  | { readonly _tag: "Installed" }
  | { readonly _tag: "Partial"; readonly bytes: number }
  | { readonly _tag: "OtherSize"; readonly bytes: number }
  | { readonly _tag: "Absent" }

export const modelState = (modelsDir: string, model: WhisperModel): Effect.Effect<ModelState> =>
  Effect.gen(function*() {
    const path = join(modelsDir, model.file)
    const size = yield* Effect.orElseSucceed(sizeOf(path), () => Option.none<number>())
    if (Option.isSome(size)) return size.value === model.bytes ? { _tag: "Installed" } : { _tag: "OtherSize", bytes: size.value }
    const part = yield* Effect.orElseSucceed(sizeOf(`${path}.part`), () => Option.none<number>())
    return Option.match(part, {
      onNone: (): ModelState => ({ _tag: "Absent" }),
      onSome: (bytes): ModelState => ({ _tag: "Partial", bytes })
    })
  })

/**
 * The catalogue models in the folder with their published size (and SHA-1, with `verify: "sha1"`), in
 * the catalogue's order of preference. A missing or unreadable folder has none.
 */
export const installedModels = (modelsDir: string, options: { readonly verify?: "size" | "sha1" } = {}) =>
  Effect.gen(function*() {
    const verifiedBy = options.verify ?? "size"
    const found: Array<InstalledModel> = []
    for (const model of WHISPER_MODELS) {
      const path = join(modelsDir, model.file)
      if (Option.getOrNull(yield* Effect.orElseSucceed(sizeOf(path), () => Option.none<number>())) !== model.bytes) continue
      if (verifiedBy === "sha1" && (yield* Effect.orElseSucceed(sha1OfFile(path), () => "")) !== model.sha1) continue
      found.push({ ...model, path, verifiedBy })
    }
    return found
  }).pipe(withSpan("WhisperModels.installed", { attributes: { modelsDir } }))

/** The most preferred installed model, if any. */
export const findInstalledModel = (modelsDir: string, options: { readonly verify?: "size" | "sha1" } = {}) =>
  Effect.map(installedModels(modelsDir, options), (found) => Option.fromNullable(found[0])).pipe(
    withSpan("WhisperModels.findInstalled", { attributes: { modelsDir } })
  )
