// The `models` command (`npm run models`, and `reelwright models`): the whisper.cpp models the service can caption with. `list` shows the catalogue and
// what MODELS_DIR holds; `pull <name>` downloads one from its public home (or a mirror: --base-url,
// WHISPER_MODELS_URL), verified against its published SHA-1, resuming a partial download. The final path
// goes to stdout and the progress to stderr, so `path=$(npm run --silent models -- pull …)` works.
import { Args, Command, Options } from "@effect/cli"
import { Config, Console, Duration, Effect, Option } from "effect"
import { resolve } from "node:path"
import {
  DEFAULT_WHISPER_MODEL,
  findWhisperModel,
  formatMiB,
  type ModelFile,
  modelsDirConfig,
  modelState,
  type ModelState,
  ModelPullFailed,
  PUBLIC_HOME,
  pullModel,
  type PullProgress,
  WHISPER_MODELS
} from "../adapters/media/whisper-models.ts"

const modelsDir = Options.text("models-dir").pipe(
  Options.withFallbackConfig(modelsDirConfig),
  Options.map((dir) => resolve(dir)),
  Options.withDescription("Where models are kept (default MODELS_DIR, else DATA_DIR/models, else ./data/models).")
)

const baseUrl = Options.text("base-url").pipe(
  Options.withFallbackConfig(Config.withDefault(Config.string("WHISPER_MODELS_URL"), PUBLIC_HOME)),
  Options.withDescription(`Where the files are: <base-url>/<file> (default WHISPER_MODELS_URL, else ${PUBLIC_HOME}).`)
)

const seconds = (name: string, fallback: number, what: string) =>
  Options.integer(name).pipe(Options.withDefault(fallback), Options.withDescription(what))

const stateText = (state: ModelState, bytes: number): string => {
  switch (state._tag) {
    case "Installed":
      return "installed"
    case "Partial":
      return `partial (${Math.floor((state.bytes / bytes) * 100)}%, pull resumes it)`
    case "OtherSize":
      return `other file (${formatMiB(state.bytes)}: pull replaces it)`
    case "Absent":
      return "-"
  }
}

const list = Command.make("list", { modelsDir }, ({ modelsDir }) =>
  Effect.gen(function*() {
    const rows = [["name", "size", "English only", "speed on 2 cores", "state"]]
    for (const model of WHISPER_MODELS) {
      const state = yield* modelState(modelsDir, model)
      const name = model.name === DEFAULT_WHISPER_MODEL ? `${model.name} (default)` : model.name
      rows.push([name, formatMiB(model.bytes), model.englishOnly ? "yes" : "no", model.speed, stateText(state, model.bytes)])
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
    yield* Console.log(`Models in ${modelsDir}:`)
    for (const row of rows) yield* Console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd())
  })).pipe(Command.withDescription("Lists the offered whisper.cpp models, their size and expected speed, and which are installed."))

/** A catalogue model, or any ggml file of the home when its published SHA-1 is given. */
const resolveModel = (name: string, sha1: Option.Option<string>): Effect.Effect<ModelFile & { readonly label: string }, ModelPullFailed> =>
  Option.match(findWhisperModel(name), {
    onSome: (model) =>
      Option.isSome(sha1) && sha1.value.toLowerCase() !== model.sha1
        ? Effect.fail(new ModelPullFailed({ message: `${model.name}'s published SHA-1 is ${model.sha1}, not ${sha1.value}.` }))
        : Effect.succeed({ ...model, label: model.name }),
    onNone: () => {
      if (Option.isSome(sha1) && /^[\w.-]+\.bin$/.test(name) && /^[0-9a-f]{40}$/i.test(sha1.value)) {
        return Effect.succeed({ file: name, sha1: sha1.value, label: name })
      }
      return Effect.fail(
        new ModelPullFailed({
          message: `No model called ${name}. Offered: ${WHISPER_MODELS.map((m) => m.name).join(", ")} (npm run models -- list). ` +
            `Another file of the same home needs its file name and published SHA-1: pull ggml-NAME.bin --sha1 <40 hex digits>.`
        })
      )
    }
  })

/**
 * Draws the progress on stderr: one line redrawn at most every 200 ms on a terminal; in a build log a
 * line per tenth (or every 10 s when the size is unknown). The last is always drawn.
 */
const progressLine = (label: string) => {
  const terminal = process.stderr.isTTY === true
  let drawnAt = 0
  let drawnTenth = -1
  let lineOpen = false
  const draw = (p: PullProgress) =>
    Effect.sync(() => {
      const done = p.total !== null && p.bytes >= p.total
      const tenth = p.percent === null ? -1 : Math.floor(p.percent / 10)
      const now = Date.now()
      const due = terminal ? now - drawnAt >= 200 : tenth !== drawnTenth || now - drawnAt >= 10_000
      if (!done && !due) return
      drawnAt = now
      drawnTenth = tenth
      const size = p.total === null ? formatMiB(p.bytes) : `${formatMiB(p.bytes)} / ${formatMiB(p.total)}`
      const percent = p.percent === null ? "" : `  ${p.percent.toFixed(1)}%`
      const resumed = p.resumedFrom > 0 ? `  (resumed at ${formatMiB(p.resumedFrom)})` : ""
      const line = `${label}  ${size}${percent}  ${formatMiB(p.bytesPerSecond)}/s${resumed}`
      process.stderr.write(terminal ? `\r${line}` : `${line}\n`)
      lineOpen = terminal
    })
  /** Ends a line left open on the terminal, before the next output. */
  const end = Effect.sync(() => {
    if (lineOpen) process.stderr.write("\n")
    lineOpen = false
  })
  return { draw, end }
}

const pull = Command.make(
  "pull",
  {
    name: Args.text({ name: "model" }).pipe(Args.withDescription(`A model of \`list\`, e.g. ${DEFAULT_WHISPER_MODEL}.`)),
    sha1: Options.text("sha1").pipe(Options.optional, Options.withDescription("The published SHA-1 of a file outside the catalogue.")),
    modelsDir,
    baseUrl,
    connectTimeout: seconds("connect-timeout", 30, "Seconds the server may take to answer."),
    stallTimeout: seconds("stall-timeout", 60, "Seconds the download may receive nothing before it counts as stalled.")
  },
  (args) =>
    Effect.gen(function*() {
      const model = yield* resolveModel(args.name, args.sha1)
      const progress = progressLine(model.label)
      const result = yield* pullModel(model, {
        modelsDir: args.modelsDir,
        baseUrl: args.baseUrl,
        onProgress: progress.draw,
        connectTimeout: Duration.seconds(args.connectTimeout),
        stallTimeout: Duration.seconds(args.stallTimeout)
      }).pipe(Effect.ensuring(progress.end))
      if (!result.downloaded) yield* Console.error(`${model.label} is already installed (SHA-1 verified).`)
      yield* Console.log(result.path)
    }).pipe(
      Effect.catchTag("ModelPullFailed", (error) =>
        Effect.sync(() => {
          process.stderr.write(`models: ${error.message}\n`)
          process.exitCode = 1
        }))
    )
).pipe(Command.withDescription("Downloads a whisper.cpp model into MODELS_DIR, checks its published SHA-1, and prints its path."))

/** Also the CLI's `models` command (src/cli.ts): it works on this machine's MODELS_DIR, not on a service. */
export const models = Command.make("models").pipe(
  Command.withDescription("The whisper.cpp models for captions: list them, pull one."),
  Command.withSubcommands([list, pull])
)

