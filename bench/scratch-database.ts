// A throwaway PostgreSQL database for one benchmark: created and migrated at the start, dropped at the end.
// It lives on the tests' server (TEST_DATABASE_URL, by default postgres://postgres@127.0.0.1:5432).
import { randomUUID } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { PgMigrationsLive } from "../adapters/postgres/migrations.ts"
import { PgClientLive } from "../adapters/postgres/pg-layer.ts"
import { databaseUrl } from "../test/support/pg-test-db.ts"
import { connectClient } from "./node-postgres.ts"

export interface ScratchDatabase {
  readonly url: string
  readonly drop: () => Promise<void>
}

/** One statement on the server's maintenance database (CREATE and DROP DATABASE cannot run in their own). */
const onServer = async (statement: string): Promise<void> => {
  const client = await connectClient(Redacted.value(databaseUrl("postgres")))
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export const createScratchDatabase = async (bench: string): Promise<ScratchDatabase> => {
  const name = `reelwright_bench_${bench.replaceAll("-", "_")}_${randomUUID().replaceAll("-", "").slice(0, 8)}`
  await onServer(`CREATE DATABASE "${name}"`)
  const url = databaseUrl(name)
  const drop = () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  const migrate = Effect.scoped(Layer.build(PgMigrationsLive.pipe(Layer.provide(PgClientLive(url, 1)))))
  await Effect.runPromise(migrate).catch(async (error: unknown) => {
    await drop()
    throw error
  })
  return { url: Redacted.value(url), drop }
}
