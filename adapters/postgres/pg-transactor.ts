// Transactor on PostgreSQL. The transaction's connection travels in the fiber's context, so every store
// called inside joins it; a nested call becomes a savepoint, undone alone if it fails.
import { SqlClient, SqlError } from "@effect/sql"
import { Effect, Layer } from "effect"
import { Transactor } from "../../domain/ports/transactor.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const PgTransactorLive = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      // Only BEGIN can fail with a SqlError here (the stores die on theirs): the database is out of reach.
      atomically: (self) =>
        sql.withTransaction(self).pipe(
          Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die),
          withSpan("PgTransactor.atomically")
        )
    }))
)
