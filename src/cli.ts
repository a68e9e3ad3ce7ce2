// The command line, derived from the operation catalogue: each operation with a CLI verb becomes a
// command (@effect/cli) whose options are its input fields, and calls a running service through the
// client derived from the HTTP API (HttpApiClient): admin verbs with ADMIN_TOKEN, the others with an
// API token (REELWRIGHT_TOKEN). Values are text, decoded by each field's own Schema (numbers in digits,
// true/false, objects and lists as JSON), so a command is checked as its HTTP request is.
import { Command, Options } from "@effect/cli"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Duration, Effect, Option, ParseResult, Schema, SchemaAST as AST } from "effect"
import { openAsBlob } from "node:fs"
import { basename } from "node:path"
import { ApiError, errorBody } from "../adapters/http/api-error.ts"
import { ReelwrightApi } from "../adapters/http/api.ts"
import { catalogue } from "./catalogue.ts"
import type { AnyOperation } from "./kernel/operation.ts"
import { fieldsOf, textFields, textFormOf, textStruct } from "./kernel/text-input.ts"
import { getCaptionRemoval } from "./ops/caption-removal/get-caption-removal.ts"
import { getClips } from "./ops/clips/get-clips.ts"
import { models } from "./models-command.ts"
import { getVideo } from "./ops/videos/get-video.ts"
import packageJson from "../package.json" with { type: "json" }


/** A request as the CLI sends it: its input decoded from the flags (the client encodes it again). */
interface CliRequest {
  readonly path?: Readonly<Record<string, unknown>>
  readonly payload?: Readonly<Record<string, unknown>> | FormData
  readonly headers?: { readonly "idempotency-key"?: string | undefined }
  readonly withResponse?: false
}

/** One endpoint of the derived client, called by the operation's name. */
interface EndpointCaller {
  call(request: CliRequest | void): Effect.Effect<unknown, unknown>
}

/** Where the service is and who calls it: the operation's access picks the token. */
const clientFor = (op: AnyOperation, server: Option.Option<string>) =>
  Effect.gen(function*() {
    const variable = op.access === "admin" ? "ADMIN_TOKEN" : "REELWRIGHT_TOKEN"
    const token = process.env[variable]
    if (token === undefined) {
      return yield* Effect.fail(`Set ${variable} (${op.access === "admin" ? "printed by npm start" : "an API token"}).`)
    }
    const baseUrl = Option.getOrElse(server, () => process.env.REELWRIGHT_URL ?? "http://localhost:8080").replace(/\/+$/, "")
    const client = yield* HttpApiClient.make(ReelwrightApi, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
    })
    const callers = new Map<string, EndpointCaller>(
      [...Object.entries(client.v1), ...Object.entries(client.admin)].map(([name, call]) => [name, { call }])
    )
    return callers
  })

const fieldNames = (struct: AnyOperation["path"]) => fieldsOf(struct.ast).map((p) => String(p.name))

/** The operation's input fields as flags: path first, then payload. */
const inputFields = (op: AnyOperation) => [...textFields(op.path.ast), ...textFields(op.payload.ast)]

/** Decodes the flags that belong to one part of the input (path or payload) from their text. */
const decodePart = (struct: AnyOperation["path"], given: Readonly<Record<string, string>>, leaveOut: ReadonlyArray<string>) => {
  const names = fieldNames(struct)
  const part = Object.fromEntries(Object.entries(given).filter(([name]) => names.includes(name)))
  return Schema.decodeUnknown(Schema.make<Readonly<Record<string, unknown>>, unknown>(textStruct(struct.ast, leaveOut)))(part, { errors: "all" })
}

const FORM_HINT = { text: "", number: " (a number)", boolean: " (true or false)", json: " (JSON)" } as const

/**
 * A field's flag: text, decoded later by the field's Schema. A required field's flag is required, but for
 * `url` where a `--file` can stand in for it.
 */
const optionOf = (op: AnyOperation) => (field: AST.PropertySignature): Options.Options<Option.Option<string>> => {
  const description = Option.orElse(AST.getDescriptionAnnotation(field), () => AST.getDescriptionAnnotation(field.type))
  const flag = Options.text(String(field.name)).pipe(
    Options.withDescription(`${Option.getOrElse(description, () => "")}${FORM_HINT[textFormOf(field.type)]}`.trim())
  )
  return field.isOptional || (op.upload !== undefined && field.name === "url") ? Options.optional(flag) : Options.map(flag, Option.some)
}

/** Every wrong field by its path, with what is wrong with it. */
const describeIssues = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .filter((issue, _, all) => all.length === 1 || !issue.message.startsWith("Expected undefined,"))
    .map((issue) => `--${issue.path.map(String).join(".") || "input"}: ${issue.message}`)
    .join("\n")

/** Reads what a create made until it is done, drawing one progress line on stderr. */
const WAIT_FOR: Readonly<Record<string, AnyOperation>> = { CreatedVideo: getVideo, CreatedCaptionRemoval: getCaptionRemoval, CreatedClips: getClips }

/** What the progress line shows of a video, a removal or a clips record; anything else in it is left as it is. */
const Progress = Schema.Struct({
  status: Schema.String,
  step: Schema.optional(Schema.String),
  export: Schema.optional(Schema.NullOr(Schema.Struct({ status: Schema.String })))
})

const waitFor = (reader: AnyOperation, id: string, callers: ReadonlyMap<string, EndpointCaller>) =>
  Effect.gen(function*() {
    const started = Date.now()
    for (;;) {
      const record = yield* callers.get(reader.name)!.call({ path: { id } })
      const encoded = yield* Schema.encodeUnknown(reader.output)(record)
      const { status, step, export: exported } = yield* Schema.decodeUnknown(Progress)(encoded)
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      yield* Effect.sync(() => process.stderr.write(`\r${id}  ${status}  step: ${(step ?? "-").padEnd(18)} ${seconds}s   `))
      if (status !== "processing" && exported?.status !== "rendering") {
        yield* Effect.sync(() => process.stderr.write("\n"))
        return encoded
      }
      yield* Effect.sleep(Duration.seconds(1))
    }
  })

const failureText = (error: unknown): string =>
  error instanceof ApiError
    ? JSON.stringify(errorBody(error), null, 2)
    : typeof error === "string"
    ? error
    : ParseResult.isParseError(error)
    ? describeIssues(error)
    : error instanceof Error
    ? error.message
    : String(error)

const commandOf = (op: AnyOperation) => {
  const input = inputFields(op)
  const reader = AST.getIdentifierAnnotation(op.output.ast).pipe(Option.flatMap((id) => Option.fromNullable(WAIT_FOR[id])))
  const options = {
    fields: input.length === 0
      ? Options.none.pipe(Options.map((): Readonly<Record<string, Option.Option<string>>> => ({})))
      : Options.all(Object.fromEntries(input.map((p) => [String(p.name), optionOf(op)(p)]))),
    server: Options.text("server").pipe(Options.withDescription("The service's base URL (default REELWRIGHT_URL, else http://localhost:8080)."), Options.optional),
    file: op.upload === undefined
      ? Options.none.pipe(Options.map(() => Option.none<string>()))
      : Options.file("file", { exists: "yes" }).pipe(Options.withDescription("A local file to upload in place of --url."), Options.optional),
    wait: Option.isNone(reader)
      ? Options.none.pipe(Options.map(() => false))
      : Options.boolean("wait").pipe(Options.withDescription("Wait until the work is done, showing its step on stderr."))
  }
  return Command.make(op.cli!, options, ({ fields, server, file, wait }) =>
    Effect.gen(function*() {
      const given = Object.fromEntries(Object.entries(fields).flatMap(([name, value]) => Option.isSome(value) ? [[name, value.value]] : []))
      const leaveOut = Option.isSome(file) ? ["url"] : []
      const path = yield* decodePart(op.path, given, leaveOut)
      const payload = yield* decodePart(op.payload, given, leaveOut)
      const callers = yield* clientFor(op, server)
      const request: CliRequest = {
        ...(fieldNames(op.path).length > 0 ? { path } : {}),
        ...(Option.isSome(file) ? { payload: yield* formOf(file.value, given) } : fieldNames(op.payload).length > 0 ? { payload } : {}),
        // The command is sent once, so it needs no Idempotency-Key.
        ...(op.idempotent ? { headers: {} } : {})
      }
      const result = yield* callers.get(op.name)!.call(request)
      const output = yield* Schema.encodeUnknown(op.output)(result)
      const id = typeof output === "object" && output !== null && "id" in output ? output.id : undefined
      const shown = wait && Option.isSome(reader) && typeof id === "string" ? yield* waitFor(reader.value, id, callers) : output
      yield* Console.log(JSON.stringify(shown, null, 2))
    }).pipe(
      Effect.catchAll((error) =>
        Effect.sync(() => {
          process.stderr.write(`${failureText(error)}\n`)
          process.exitCode = 1
        })
      )
    )).pipe(Command.withDescription(`${op.summary}. ${op.description}`))
}

/** A multipart form: the file, and the other flags as the text they were given. */
const formOf = (path: string, given: Readonly<Record<string, string>>) =>
  Effect.promise(async () => {
    const form = new FormData()
    form.set("file", await openAsBlob(path), basename(path))
    for (const [name, value] of Object.entries(given)) form.set(name, value)
    return form
  })

const [first, ...rest] = catalogue.filter((op) => op.cli !== null).map(commandOf)

const reelwright = Command.make("reelwright").pipe(
  Command.withDescription(
    "Calls a running Reelwright service (REELWRIGHT_URL or --server says where; ADMIN_TOKEN or REELWRIGHT_TOKEN who), and fetches whisper.cpp models into this machine's MODELS_DIR (models)."
  ),
  Command.withSubcommands([first!, ...rest, models])
)

const cli = Command.run(reelwright, { name: "reelwright", version: packageJson.version })

cli(process.argv).pipe(
  Effect.provide(FetchHttpClient.layer),
  Effect.provide(NodeContext.layer),
  // @effect/cli has printed what is wrong with the command line (an unknown command or flag, a missing value).
  Effect.catchAll(() => Effect.sync(() => {
    process.exitCode = 2
  })),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
