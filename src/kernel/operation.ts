// An operation is declared once: its input and output schemas, its errors, its handler, and the
// surfaces that expose it (HTTP route, MCP tool, CLI verb). Every surface is derived from this.
import { Effect, type Schema } from "effect"
import type { DomainError } from "../../domain/errors.ts"
import type { CurrentWorkspace } from "./current-workspace.ts"
import { withSpan } from "./spans.ts"

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export type ErrorTag = DomainError["_tag"]

export interface HttpSurface {
  readonly method: HttpMethod
  /** Path under the base URL, with `:param` segments taken from `path` fields of the input. */
  readonly path: `/${string}`
}

/**
 * An operation that reads one record by the `id` in its path (`GET /v1/videos/:id`): what a create names
 * as `readBack`. Only its name, route and path fields are read.
 */
export interface RecordRead {
  readonly name: string
  readonly http: HttpSurface
  readonly path: { readonly fields: { readonly id: unknown } }
}

/** A file a client sent with the request (a multipart part, a CLI `--file`), stored on local disk. */
export interface UploadedFile {
  readonly path: string
  readonly name: string
  readonly contentType: string
}

/** An operation but for the errors it declares: `operation()` checks those against `handle`. */
export interface OperationBody<
  Name extends string,
  Path extends Schema.Struct.Fields,
  Payload extends Schema.Struct.Fields,
  Out,
  OutEncoded,
  E extends DomainError,
  R,
  Idempotent extends boolean = boolean
> {
  readonly name: Name
  readonly summary: string
  readonly description: string
  /** Input fields that travel in the URL path over HTTP. */
  readonly path: Schema.Struct<Path>
  /** The other input fields: a JSON body, or the query string for GET. */
  readonly payload: Schema.Struct<Payload>
  readonly output: Schema.Schema<Out, OutEncoded>
  readonly http: HttpSurface
  /**
   * Who may call it: a workspace's token, or the operator's admin token. Admin operations are never
   * tools and never reachable with a workspace token.
   */
  readonly access: "workspace" | "admin"
  /** MCP tool name, when the operation is a tool (admin operations never are). */
  readonly tool: string | null
  /** CLI verb, when the CLI offers it. */
  readonly cli: string | null
  /** Whether a create may be retried safely with an `Idempotency-Key`. */
  readonly idempotent: Idempotent
  /**
   * For a create: the operation that reads back the record it made, by the `id` of its answer (so only an
   * answer with a string `id` may name one). HTTP answers that operation's URL as `Location`.
   */
  readonly readBack?: Out extends { readonly id: string } ? RecordRead : never
  /**
   * The answer is a file the operation stored: its `id` a file of the workspace, its `url` the file's link.
   * A surface that carries media (MCP) sends the file along with the answer.
   */
  readonly answersFile?: Out extends { readonly id: string; readonly url: string } ? true : never
  /**
   * It reaches beyond the service: fetches a URL the caller gives, calls a hosted provider or sends
   * webhooks (MCP's `openWorldHint`). Nothing in the rest of the declaration says so.
   */
  readonly openWorld?: true
  /**
   * It discards what the caller cannot get back although its method is not DELETE (MCP's
   * `destructiveHint`, which a DELETE always has).
   */
  readonly destructive?: true
  readonly handle: (
    input: Schema.Struct.Type<Path> & Schema.Struct.Type<Payload>
  ) => Effect.Effect<Out, E, R | CurrentWorkspace>
  /**
   * When a client may send a file in place of the `url` field (over HTTP a multipart form whose other
   * fields are text, derived from `payload`; the CLI's `--file`): how the operation starts from it.
   */
  readonly upload?: (
    file: UploadedFile,
    input: Omit<Schema.Struct.Type<Path> & Schema.Struct.Type<Payload>, "url">
  ) => Effect.Effect<Out, E, R | CurrentWorkspace>
}

export interface Operation<
  Name extends string,
  Path extends Schema.Struct.Fields,
  Payload extends Schema.Struct.Fields,
  Out,
  OutEncoded,
  E extends DomainError,
  R,
  Idempotent extends boolean = boolean
> extends OperationBody<Name, Path, Payload, Out, OutEncoded, E, R, Idempotent> {
  /** The domain errors `handle` may fail with; each surface answers these (HTTP: api-error.ts). */
  readonly errors: ReadonlyArray<E["_tag"]>
}

/** A Struct of any fields, as a surface walks it: its fields by name and the Schema that decodes them. */
export type AnyStruct = Schema.Schema.AnyNoContext & { readonly fields: Schema.Struct.Fields }

/** The parts of an operation whose types differ from one operation to the next. */
type Erased = "path" | "payload" | "output" | "handle" | "upload" | "readBack" | "answersFile"

/**
 * Any operation needing at most the services `R`, as the surfaces hold the catalogue. Its input is what
 * its own `path` and `payload` Schemas decoded, which every surface does before calling `handle` (so the
 * method's parameter is the decoded record rather than one operation's type).
 */
export interface AnyOperation<R = unknown> extends
  Omit<OperationBody<string, Schema.Struct.Fields, Schema.Struct.Fields, unknown, unknown, DomainError, R>, Erased>
{
  readonly path: AnyStruct
  readonly payload: AnyStruct
  readonly output: Schema.Schema.AnyNoContext
  readonly errors: ReadonlyArray<ErrorTag>
  readonly readBack?: RecordRead
  readonly answersFile?: true
  handle(input: Readonly<Record<string, unknown>>): Effect.Effect<unknown, DomainError, R>
  upload?(file: UploadedFile, input: Readonly<Record<string, unknown>>): Effect.Effect<unknown, DomainError, R>
}

/**
 * What `operation()` gives back: the operation, or (when its `errors` leave out a tag its handler can fail
 * with) a type no surface accepts, naming the missing tags. The surfaces answer only declared errors
 * (HTTP would send an undeclared one as an empty 500), so the list must cover the handler's error channel.
 * The check sits in the result rather than the argument: there it would stop `E` being inferred from `handle`.
 */
export type CheckedOperation<Op, E extends DomainError, Declared extends ReadonlyArray<ErrorTag>> =
  [Exclude<E["_tag"], Declared[number]>] extends [never] ? Op : { readonly undeclaredErrors: Exclude<E["_tag"], Declared[number]> }

export function operation<
  const Name extends string,
  Path extends Schema.Struct.Fields,
  Payload extends Schema.Struct.Fields,
  Out,
  OutEncoded,
  E extends DomainError,
  R,
  const Idempotent extends boolean,
  const Declared extends ReadonlyArray<ErrorTag>
>(
  op: OperationBody<Name, Path, Payload, Out, OutEncoded, E, R, Idempotent> & { readonly errors: Declared }
): CheckedOperation<Operation<Name, Path, Payload, Out, OutEncoded, E, R, Idempotent>, E, Declared>
export function operation(op: SpannedParts): object {
  // Every surface runs the operation in its span, named after it. No stack is captured: the name says
  // where it runs, and on the polled reads the capture was a measurable share of a call.
  const inSpan = <A, E, R>(effect: Effect.Effect<A, E, R>) => withSpan(op.name, { captureStackTrace: false })(effect)
  const { upload } = op
  return {
    ...op,
    handle: (input: Readonly<Record<string, unknown>>) => inSpan(op.handle(input)),
    ...(upload === undefined ? {} : { upload: (file: UploadedFile, input: Readonly<Record<string, unknown>>) => inSpan(upload(file, input)) })
  }
}

/** What `operation()` wraps in the operation's span, with the input types erased. */
type SpannedParts = Pick<AnyOperation, "name" | "handle" | "upload">
