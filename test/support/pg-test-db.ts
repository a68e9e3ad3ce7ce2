// Throwaway PostgreSQL databases for tests. Global setup migrates one template database per run; each
// suite then gets a copy of it (CREATE DATABASE ... TEMPLATE, much faster than migrating) that is dropped
// when the suite's layer is released.
//
// When PostgreSQL cannot be reached the suites fail with the reason. Outside CI, SKIP_POSTGRES_TESTS=1
// skips them instead (postgresSkipReason says why).
import { spawnSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Layer, Redacted, type Scope } from "effect"
import { PgMigrationsLive } from "../../adapters/postgres/migrations.ts"
import { PgClientLive, PgStoresLive, type PgStoresOptions } from "../../adapters/postgres/pg-layer.ts"

/** Set by global setup: the migrated template's name, or why there is none. */
const TEMPLATE_ENV = "TEST_PG_TEMPLATE"
const UNAVAILABLE_ENV = "TEST_PG_UNAVAILABLE"

const baseUrl = (): string => process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** The URL of database `name` on the test server. */
export const databaseUrl = (name: string): Redacted.Redacted<string> => {
  const url = new URL(baseUrl())
  url.pathname = `/${name}`
  return Redacted.make(url.toString())
}

/** Runs `f` on a short-lived connection to the base database (for CREATE and DROP DATABASE). */
const onServer = <A>(f: (sql: PgClient.PgClient) => Effect.Effect<A, SqlError.SqlError>) =>
  Effect.flatMap(PgClient.PgClient, f).pipe(Effect.provide(PgClientLive(Redacted.make(baseUrl()), 1)))

const createDatabase = (name: string, template: string | null) =>
  onServer((sql) =>
    template === null
      ? sql`CREATE DATABASE ${sql(name)}`
      : sql`CREATE DATABASE ${sql(name)} TEMPLATE ${sql(template)}`
  )

const dropDatabase = (name: string) => onServer((sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)

/** One line saying why an effect failed: the SqlError's message and its driver error's. */
const reason = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
}

/**
 * For global setup: creates and migrates the template, to be dropped when the process exits. Never
 * fails: when PostgreSQL is out of reach it records why, and the suites report it.
 */
export const prepareTemplate = async (): Promise<void> => {
  const name = `reelwright_tmpl_${randomUUID().replaceAll("-", "").slice(0, 12)}`
  const migrate = Effect.scoped(Layer.build(PgMigrationsLive.pipe(Layer.provide(PgClientLive(databaseUrl(name), 1)))))
  const exit = await Effect.runPromiseExit(
    createDatabase(name, null).pipe(
      Effect.zipRight(migrate.pipe(Effect.tapErrorCause(() => Effect.ignore(dropDatabase(name)))))
    )
  )
  if (exit._tag === "Failure") {
    const server = new URL(baseUrl())
    if (server.password !== "") server.password = "***"
    process.env[UNAVAILABLE_ENV] = `${reason(exit.cause)} (at ${server.toString()})`
    return
  }
  process.env[TEMPLATE_ENV] = name
  // Not in a teardown: a worker may start after it. Only synchronous work is possible on exit, hence psql.
  process.once("exit", () => {
    spawnSync("psql", ["-X", "-q", "-d", baseUrl(), "-c", `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`], {
      stdio: "ignore"
    })
  })
}

/** Why the PostgreSQL suites are skipped here; undefined when they run (or fail for want of a server). */
export const postgresSkipReason: string | undefined =
  process.env[TEMPLATE_ENV] === undefined && process.env.SKIP_POSTGRES_TESTS === "1" && process.env.CI !== "true"
    ? `SKIP_POSTGRES_TESTS=1 and PostgreSQL is unavailable: ${process.env[UNAVAILABLE_ENV] ?? "no template database"}`
    : undefined

const template = Effect.suspend(() => {
  const name = process.env[TEMPLATE_ENV]
  if (name !== undefined) return Effect.succeed(name)
  return Effect.dieMessage(
    `PostgreSQL is needed for this suite but could not be prepared: ${
      process.env[UNAVAILABLE_ENV] ?? "global setup made no template database"
    }. Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or point ` +
      "TEST_DATABASE_URL at one; outside CI, SKIP_POSTGRES_TESTS=1 skips the PostgreSQL suites."
  )
})

/** A new database for the scope, dropped with it: a copy of the migrated template, or empty. Returns its URL. */
export const testDatabase = (
  options: { readonly empty?: boolean } = {}
): Effect.Effect<Redacted.Redacted<string>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const source = yield* template
    const name = `reelwright_test_${randomUUID().replaceAll("-", "")}`
    yield* Effect.acquireRelease(
      createDatabase(name, options.empty === true ? null : source),
      () => dropDatabase(name).pipe(Effect.orDie)
    ).pipe(Effect.orDie)
    return databaseUrl(name)
  })

/** Every store on a database of its own, for one suite. */
export const PgTestStores = (options: Omit<PgStoresOptions, "url"> = {}) =>
  Layer.unwrapScoped(Effect.map(testDatabase(), (url) => PgStoresLive({ ...options, url })))
