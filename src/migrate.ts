// Brings the database at DATABASE_URL up to the current schema, then exits (`npm run migrate`; Fly's
// release_command, so a deploy whose migrations fail never starts new Machines). Each process also
// migrates when it starts; this step only makes a failing migration stop the deploy early.
import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { PgMigrationsLive } from "../adapters/postgres/migrations.ts"
import { PgClientLive } from "../adapters/postgres/pg-layer.ts"

const migrations = Layer.unwrapEffect(
  Effect.map(Config.redacted("DATABASE_URL"), (url) => PgMigrationsLive.pipe(Layer.provide(PgClientLive(url, 1))))
)

Effect.logInfo("the database schema is current").pipe(Effect.provide(migrations), NodeRuntime.runMain)
