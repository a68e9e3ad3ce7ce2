// Rows as node-pg returns them, decoded by a Schema into records. A row that does not decode is a defect:
// the database holds what no adapter wrote (a hand edit, a migration gone wrong), and no caller could do
// better than fail loudly, naming the table, the row and the field.
import type { SqlClient, SqlConnection } from "@effect/sql"
import { Data, Effect, Either, Option, ParseResult, Schema } from "effect"

type Row = SqlConnection.Row

/** The defect of a row that does not decode. */
export class UndecodableRow extends Data.TaggedError("UndecodableRow")<{
  readonly table: string
  /** The row's key, where the query selected it. */
  readonly row: string | null
  readonly message: string
}> {}

export interface RowDecoder<A> {
  /** The table whose rows these are. */
  readonly table: string
  /** A row the query always returns (`undefined`, the lack of one, is a defect too). */
  readonly one: (row: Row | undefined) => Effect.Effect<A>
  readonly all: (rows: ReadonlyArray<Row>) => Effect.Effect<ReadonlyArray<A>>
  /** The first row, if any. */
  readonly first: (rows: ReadonlyArray<Row>) => Effect.Effect<Option.Option<A>>
}

/** A failing value is quoted in the message; a whole document need not be. */
const MAX_ISSUE_LENGTH = 200

/** `a/b`: the values of the key columns, or null when the row lacks them. */
const keyOf = (row: Row | undefined, key: ReadonlyArray<string>): string | null => {
  if (row === undefined) return null
  const values = key.map((column) => row[column])
  return values.every((value) => typeof value === "string" || typeof value === "number") ? values.join("/") : null
}

/**
 * Where and why the row failed: the deepest failing path, as a union reports each of its members (of which
 * the deepest is the one the value was meant to be).
 */
const failure = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const depth = Math.max(...issues.map((issue) => issue.path.length))
  const byPath = new Map<string, Array<string>>()
  for (const issue of issues.filter((i) => i.path.length === depth)) {
    const path = issue.path.map(String).join(".")
    const message = issue.message.length > MAX_ISSUE_LENGTH ? `${issue.message.slice(0, MAX_ISSUE_LENGTH)}…` : issue.message
    byPath.set(path, [...byPath.get(path) ?? [], message])
  }
  return [...byPath].map(([path, messages]) => `${path === "" ? "" : `${path}: `}${messages.join(" or ")}`).join("; ")
}

/** The first row, if any, decoded by `decode`: a join's row by the decoders of the tables it joins, say. */
export const firstRow = <A>(
  rows: ReadonlyArray<Row>,
  decode: (row: Row) => Effect.Effect<A>
): Effect.Effect<Option.Option<A>> => rows[0] === undefined ? Effect.succeedNone : Effect.asSome(decode(rows[0]))

/**
 * Decodes rows of `table` (or that table's columns in a join) with `schema`; `key` names the columns that
 * identify a row in the defect's message.
 */
export const rowDecoder = <A, I>(
  table: string,
  schema: Schema.Schema<A, I>,
  key: ReadonlyArray<string> = ["id"]
): RowDecoder<A> => {
  const decode = Schema.decodeUnknownEither(schema)
  const undecodable = (row: Row | undefined, error: ParseResult.ParseError) => {
    const id = keyOf(row, key)
    return Effect.die(new UndecodableRow({
      table,
      row: id,
      message: `${table} row${id === null ? "" : ` ${id}`}: ${failure(error)}`
    }))
  }
  const one = (row: Row | undefined): Effect.Effect<A> =>
    Either.match(decode(row), { onLeft: (error) => undecodable(row, error), onRight: Effect.succeed })
  return {
    table,
    one,
    all: (rows) => {
      const records: Array<A> = []
      for (const row of rows) {
        const decoded = decode(row)
        if (Either.isLeft(decoded)) return undecodable(row, decoded.left)
        records.push(decoded.right)
      }
      return Effect.succeed(records)
    },
    first: (rows) => firstRow(rows, one)
  }
}

/** The rows of the decoder's table whose `id` is among `ids`, in one query and in no order; none asked, none read. */
export const rowsWithIds = <A>(sql: SqlClient.SqlClient, rows: RowDecoder<A>, ids: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<A>> =>
  ids.length === 0
    ? Effect.succeed([])
    : sql`SELECT * FROM ${sql(rows.table)} WHERE id = ANY(${ids}::text[])`.pipe(Effect.flatMap(rows.all), Effect.orDie)
