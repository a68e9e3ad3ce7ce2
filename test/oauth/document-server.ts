// A node:http server on 127.0.0.1 that publishes client metadata documents: each path answers as told
// (or hangs), and every fetch is counted, so tests can see what the cache saved.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { REDIRECT } from "./fixture.ts"

export type DocumentAnswer =
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string }
  | { readonly hang: true }

export interface DocumentServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string
  readonly serve: (path: string, answer: DocumentAnswer) => void
  /** How many requests reached `path`. */
  readonly hits: (path: string) => number
  readonly close: () => Promise<void>
}

/** A well-formed document for `clientId`, with `changes` merged over it. */
export const metadataDocument = (clientId: string, changes: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Doc Assistant",
  redirect_uris: [REDIRECT],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...changes
})

/** A 200 JSON answer of `document`. */
export const json = (document: unknown, headers: Readonly<Record<string, string>> = {}): DocumentAnswer => ({
  status: 200,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(document)
})

export const startDocumentServer = async (): Promise<DocumentServer> => {
  const answers = new Map<string, DocumentAnswer>()
  const counts = new Map<string, number>()
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? "/"
    counts.set(path, (counts.get(path) ?? 0) + 1)
    const answer = answers.get(path) ?? { status: 404, body: "not found" }
    if ("hang" in answer) return
    response.writeHead(answer.status, answer.headers)
    response.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (path, answer) => void answers.set(path, answer),
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // A hanging answer would keep close() waiting forever.
        server.closeAllConnections()
      })
  }
}

/** The server as a scoped resource: closed when the test's scope ends. */
export const documentServer = Effect.acquireRelease(
  Effect.promise(startDocumentServer),
  (server) => Effect.promise(server.close)
)
