// The connection pool, whose connections prepare each statement once. @effect/sql-pg sends every
// statement unnamed, so PostgreSQL parses and plans it on every run: measured on the webhook lane,
// parse and plan were two thirds of the database's time per statement (the claim: 0.3 ms parsing,
// 0.7 ms planning, 0.3 ms running). A named statement is parsed once per connection, and after a few
// runs PostgreSQL keeps a generic plan for it.
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Redacted } from "effect"
import Pg from "pg"

/** Statement texts named so far, process-wide; beyond this many, new texts run unnamed (each connection keeps what it prepared). */
const MAX_NAMED_STATEMENTS = 2_000
const names = new Map<string, string>()

const nameOf = (text: string): string | undefined => {
  const known = names.get(text)
  if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known
  const name = `rw_${names.size}`
  names.set(text, name)
  return name
}

/**
 * A prepared `SELECT *` fails once a migration (another process's, in a rolling deploy) changes its
 * table's columns: "cached plan must not change result type". The connection is ended then, so the pool
 * replaces it and the next run prepares again; only the statement that met the change fails.
 */
const isStalePlan = (error: unknown): boolean =>
  error instanceof Error && (error as Error & { code?: unknown }).code === "0A000" && /cached plan/.test(error.message)

type QueryCallback = (error: Error | null, result: unknown) => void

class PreparingClient extends Pg.Client {
  // pg's query has a dozen overloads; @effect/sql-pg calls the (text, values, callback) one.
  override query(...args: Array<unknown>): never {
    const [text, values, callback] = args
    if (typeof text === "string" && Array.isArray(values) && typeof callback === "function") {
      const name = nameOf(text)
      if (name !== undefined) {
        const done = callback as QueryCallback
        return (super.query as (...a: Array<unknown>) => never)({ name, text, values }, (error: Error | null, result: unknown) => {
          if (error !== null && isStalePlan(error)) void this.end().catch(() => undefined)
          done(error, result)
        })
      }
    }
    return (super.query as (...a: Array<unknown>) => never)(...args)
  }
}

export interface PgPoolOptions {
  readonly url: Redacted.Redacted<string>
  readonly maxConnections?: number | undefined
  readonly applicationName: string
}

/** The pool, ended when its scope closes; fails (as PgClient.make would) when the database does not answer. */
export const acquirePgPool = (options: PgPoolOptions) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const pool = new Pg.Pool({
        Client: PreparingClient,
        connectionString: Redacted.value(options.url),
        max: options.maxConnections,
        application_name: options.applicationName
      })
      // A dropped idle connection is the pool's to replace; unhandled, its error would end the process.
      pool.on("error", () => undefined)
      return Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new SqlError({ message: "PgClient: Connection timeout" }) }),
        Effect.tapError(() => Effect.promise(() => pool.end())),
        Effect.as(pool)
      )
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
  )
