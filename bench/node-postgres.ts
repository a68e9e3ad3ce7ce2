// node-postgres (`pg`): the bare driver the baselines use, without Effect.
import pg from "pg"

export { pg }

/** A connected client, ended by the caller. */
export const connectClient = async (url: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return client
}
