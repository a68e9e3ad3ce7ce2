// node-postgres (`pg`, installed with @effect/sql-pg): the bare driver the baselines use, without Effect.
// No type declarations for it are installed, so the little the benchmarks call is typed here.
import { createRequire } from "node:module"

export interface QueryResult<Row> {
  readonly rows: Array<Row>
  readonly rowCount: number | null
}

export interface Queryable {
  readonly query: <Row = Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>) => Promise<QueryResult<Row>>
}

export interface PgClient extends Queryable {
  readonly connect: () => Promise<void>
  readonly end: () => Promise<void>
}

export interface PgPool extends Queryable {
  readonly end: () => Promise<void>
}

interface NodePostgres {
  readonly Client: new (config: { readonly connectionString: string }) => PgClient
  readonly Pool: new (config: { readonly connectionString: string; readonly max: number }) => PgPool
}

export const pg = createRequire(import.meta.url)("pg") as NodePostgres

/** A connected client, ended by the caller. */
export const connectClient = async (url: string): Promise<PgClient> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return client
}
