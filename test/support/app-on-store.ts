// The whole service on either store, for tests that must hold on both: in memory, or on a PostgreSQL
// database of its own that is dropped when the app closes.
import { Effect, Exit, Scope } from "effect"
import { startApp, type TestApp } from "./app.ts"
import { postgresSkipReason, testDatabase } from "./pg-test-db.ts"

export type StoreKind = "memory" | "postgres"

/** Both stores, or memory alone where the PostgreSQL suites are skipped (SKIP_POSTGRES_TESTS=1 outside CI). */
export const STORES: ReadonlyArray<StoreKind> = postgresSkipReason === undefined ? ["memory", "postgres"] : ["memory"]

export const startAppOn = async (store: StoreKind, options: { worker?: boolean } = {}): Promise<TestApp> => {
  if (store === "memory") return startApp(options)
  const scope = Effect.runSync(Scope.make())
  const dropDatabase = () => Effect.runPromise(Scope.close(scope, Exit.void))
  const databaseUrl = await Effect.runPromise(Scope.extend(testDatabase(), scope))
  const app = await startApp({ ...options, databaseUrl }).catch(async (error: unknown) => {
    await dropDatabase()
    throw error
  })
  return {
    ...app,
    close: async () => {
      await app.close()
      await dropDatabase()
    }
  }
}
