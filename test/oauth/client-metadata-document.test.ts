// Clients known by their Client ID Metadata Document, at the use cases. The documents come from a
// node:http server on 127.0.0.1 (http passes there only because the loopback test switch is on), are
// checked like registrations, cached within bounds, and every way one can fail is shown to the user
// with the reason, never redirected. The URL rules themselves are decided without any network.
import { expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Option, TestClock } from "effect"
import { cacheLifetimeMs, makeClientMetadataDocuments, MAX_DOCUMENT_BYTES } from "../../adapters/oauth/client-metadata-documents.ts"
import type { OutboundClientShape } from "../../adapters/outbound/outbound-client.ts"
import { clientIdUrlProblem } from "../../domain/oauth.ts"
import { OAuthStore } from "../../domain/ports/oauth-store.ts"
import { checkAuthorizationRequest } from "../../src/ops/oauth/authorization-request.ts"
import { connectedApps } from "../../src/ops/oauth/connected-apps.ts"
import { resolveClient } from "../../src/ops/oauth/resolve-client.ts"
import { type DocumentServer, documentServer, json, metadataDocument } from "./document-server.ts"
import {
  approvedCode,
  authorizeParams,
  aWorkspace,
  exchangeCode,
  newVerifier,
  REDIRECT,
  refreshWith,
  TestStores,
  userIdOf
} from "./fixture.ts"

const MINUTE_MS = 60 * 1000
const HOUR_MS = 60 * MINUTE_MS

let paths = 0
/** A path of its own on `server`, answering `answer`; the client id is its URL. */
const publish = (server: DocumentServer, answer: (clientId: string) => Parameters<DocumentServer["serve"]>[1]) => {
  const path = `/clients/${++paths}.json`
  const clientId = `${server.url}${path}`
  server.serve(path, answer(clientId))
  return { clientId, path }
}

/** The refusal of an authorization request naming `clientId`. */
const refusalFor = (clientId: string) => Effect.flip(checkAuthorizationRequest(authorizeParams(clientId, newVerifier())))

const nameOf = (clientId: string) =>
  resolveClient(clientId).pipe(Effect.map((client) => Option.getOrThrow(client).name), Effect.orDie)

it.scoped("a client_id URL goes through consent, approval, code exchange and refresh, on one fetch of its document", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    const { clientId, path } = publish(server, (id) => json(metadataDocument(id, { client_uri: "https://doc.example" })))
    const { workspaceId } = yield* aWorkspace()
    const userId = yield* userIdOf("owner@example.com")
    const verifier = newVerifier()

    const request = yield* checkAuthorizationRequest(authorizeParams(clientId, verifier))
    expect(request.client).toMatchObject({ id: clientId, name: "Doc Assistant", redirectUris: [REDIRECT] })
    expect(request.client.metadata).toMatchObject({ client_uri: "https://doc.example", token_endpoint_auth_method: "none" })
    const code = yield* approvedCode(clientId, userId, workspaceId, verifier)
    const tokens = yield* exchangeCode(clientId, code, verifier)
    const refreshed = yield* refreshWith(clientId, tokens.refresh_token)
    expect(refreshed.access_token).not.toBe(tokens.access_token)
    expect(server.hits(path)).toBe(1)

    // The approval stored the client as it saw it: the connected-apps page names it.
    expect((yield* connectedApps(userId)).map((app) => [app.client.id, app.client.name])).toEqual([[clientId, "Doc Assistant"]])
    expect(Option.getOrThrow(yield* (yield* OAuthStore).getClient(clientId)).name).toBe("Doc Assistant")
  }).pipe(Effect.provide(TestStores)))

it.scoped("shows every failure to the user, with the document's URL and what is wrong, and never redirects", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    const cases: ReadonlyArray<readonly [(clientId: string) => Parameters<DocumentServer["serve"]>[1], string]> = [
      [(id) => json(metadataDocument(`${id}?other`)), "not the URL it is published at"],
      [(id) => json(metadataDocument(id, { client_id: undefined })), "names no client_id"],
      [(id) => json(metadataDocument(id, { redirect_uris: ["http://example.com/cb"] })), "use https"],
      [(id) => json(metadataDocument(id, { redirect_uris: undefined })), "redirect_uris must be a non-empty array"],
      [(id) => json(metadataDocument(id, { token_endpoint_auth_method: "client_secret_basic" })), "token_endpoint_auth_method must be none"],
      [(id) => json(metadataDocument(id, { client_secret: "s3cret" })), "client secret"],
      [(id) => json(metadataDocument(id, { client_name: 42 })), "client_name must be text"],
      [() => ({ status: 200, headers: { "content-type": "text/html" }, body: "<html>Welcome</html>" }), "not valid JSON"],
      [() => json(["a", "list"]), "not a JSON object"],
      [(id) => json(metadataDocument(id, { padding: "x".repeat(MAX_DOCUMENT_BYTES) })), `over ${MAX_DOCUMENT_BYTES} bytes`],
      [() => ({ status: 404, body: "gone" }), "answered HTTP 404"],
      [() => ({ status: 302, headers: { location: "https://elsewhere.example/client.json" } }), "a redirect"]
    ]
    for (const [answer, reason] of cases) {
      const { clientId } = publish(server, answer)
      const refused = yield* refusalFor(clientId)
      expect(refused.redirect, reason).toBeNull()
      expect(refused.error).toBe("invalid_client")
      expect(refused.description).toContain(reason)
      expect(refused.description).toContain(clientId)
      expect(refused.description).toContain("developer must fix it")
    }
  }).pipe(Effect.provide(TestStores)))

it.scoped("refuses a document that cannot be fetched: nothing listening, or no answer within 5 seconds", () =>
  Effect.gen(function*() {
    const closed = yield* documentServer
    const unreachable = `${closed.url}/client.json`
    yield* Effect.promise(closed.close)
    expect((yield* refusalFor(unreachable)).description).toContain("could not reach 127.0.0.1")

    const server = yield* documentServer
    const { clientId } = publish(server, () => ({ hang: true }))
    const waiting = yield* Effect.fork(refusalFor(clientId))
    yield* TestClock.adjust("5 seconds")
    const refused = yield* Fiber.join(waiting)
    expect(refused.redirect).toBeNull()
    expect(refused.description).toContain("did not answer within 5 seconds")
  }).pipe(Effect.provide(TestStores)))

it.scoped("checks the redirect URI against the document's, showing a mismatch to the user", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    const { clientId } = publish(server, (id) => json(metadataDocument(id)))
    const refused = yield* Effect.flip(
      checkAuthorizationRequest(authorizeParams(clientId, newVerifier(), { redirect_uri: "https://evil.example/cb" }))
    )
    expect(refused.redirect).toBeNull()
    expect(refused.description).toContain("not one the app registered")
  }).pipe(Effect.provide(TestStores)))

it.scoped("caches a document for its max-age, at least 5 minutes and at most 24 hours, then fetches it again", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    // max-age=60 is raised to the 5-minute floor.
    const short = publish(server, (id) => json(metadataDocument(id, { client_name: "Short" }), { "cache-control": "max-age=60" }))
    // A week is cut to the 24-hour ceiling.
    const long = publish(server, (id) => json(metadataDocument(id, { client_name: "Long" }), { "cache-control": "public, max-age=604800" }))
    expect(yield* nameOf(short.clientId)).toBe("Short")
    expect(yield* nameOf(long.clientId)).toBe("Long")

    server.serve(short.path, json(metadataDocument(short.clientId, { client_name: "Short, renamed" })))
    yield* TestClock.adjust(4 * MINUTE_MS)
    expect(yield* nameOf(short.clientId)).toBe("Short")
    yield* TestClock.adjust(2 * MINUTE_MS)
    expect(yield* nameOf(short.clientId)).toBe("Short, renamed")
    expect(server.hits(short.path)).toBe(2)

    server.serve(long.path, json(metadataDocument(long.clientId, { client_name: "Long, renamed" })))
    yield* TestClock.adjust(23 * HOUR_MS)
    expect(yield* nameOf(long.clientId)).toBe("Long")
    yield* TestClock.adjust(2 * HOUR_MS)
    expect(yield* nameOf(long.clientId)).toBe("Long, renamed")
    expect(server.hits(long.path)).toBe(2)
  }).pipe(Effect.provide(TestStores)))

it.scoped("does not keep a document found wrong: its fix is seen at the next try", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    const { clientId, path } = publish(server, (id) => json(metadataDocument(id, { redirect_uris: [] })))
    expect((yield* refusalFor(clientId)).description).toContain("redirect_uris")
    server.serve(path, json(metadataDocument(clientId)))
    expect(yield* nameOf(clientId)).toBe("Doc Assistant")
    expect(server.hits(path)).toBe(2)
  }).pipe(Effect.provide(TestStores)))

it.scoped("the token endpoint refuses a client whose document was withdrawn, once the cached copy expires", () =>
  Effect.gen(function*() {
    const server = yield* documentServer
    const { clientId, path } = publish(server, (id) => json(metadataDocument(id)))
    const { workspaceId } = yield* aWorkspace()
    const userId = yield* userIdOf("owner@example.com")
    const verifier = newVerifier()
    const tokens = yield* exchangeCode(clientId, yield* approvedCode(clientId, userId, workspaceId, verifier), verifier)
    server.serve(path, { status: 404, body: "gone" })
    yield* TestClock.adjust(6 * MINUTE_MS)
    const refused = yield* Effect.flip(refreshWith(clientId, tokens.refresh_token))
    expect(refused.error).toBe("invalid_client")
    expect(refused.description).toContain("answered HTTP 404")
  }).pipe(Effect.provide(TestStores)))

it("decides which client_id URLs may be fetched, without any network", () => {
  const allowed = { loopbackHttp: true }
  const strict = { loopbackHttp: false }
  // http is refused off loopback even with the test switch on, and on loopback without it.
  expect(clientIdUrlProblem("http://app.example/client.json", allowed)).toContain("must use https")
  expect(clientIdUrlProblem("http://10.0.0.5/client.json", allowed)).toContain("must use https")
  expect(clientIdUrlProblem("http://127.0.0.1:8976/client.json", strict)).toContain("must use https")
  expect(clientIdUrlProblem("http://127.0.0.1:8976/client.json", allowed)).toBeNull()
  expect(clientIdUrlProblem("http://[::1]:8976/client.json", allowed)).toBeNull()
  expect(clientIdUrlProblem("https://app.example/oauth/client.json", strict)).toBeNull()
  expect(clientIdUrlProblem("https://app.example/client.json?v=2", strict)).toBeNull()
  for (
    const [url, problem] of [
      ["ftp://app.example/client.json", "must use https"],
      ["https://app.example", "no path"],
      ["https://app.example/", "no path"],
      ["https://app.example/client.json#frag", "fragment"],
      ["https://user:pw@app.example/client.json", "user name or password"],
      ["https://app.example/a/../client.json", ". or .. segments"],
      ["https://app.example/./client.json", ". or .. segments"],
      ["https://app.example/a/%2E%2E/client.json", ". or .. segments"],
      ["https://APP.example/client.json", "normal form"],
      ["https://app.example:443/client.json", "normal form"],
      ["not a url", "not an absolute URL"]
    ] as const
  ) {
    expect(clientIdUrlProblem(url, strict), url).toContain(problem)
  }
})

it.effect("refuses an http client_id before any connection when loopback is not allowed", () =>
  Effect.gen(function*() {
    const dialed: Array<string> = []
    const client: OutboundClientShape = {
      request: (url) => Effect.sync(() => dialed.push(url)).pipe(Effect.as({ status: 200, headers: {}, bytes: 0 }))
    }
    const documents = makeClientMetadataDocuments({ client, loopbackHttp: false })
    for (const url of ["http://127.0.0.1:8976/client.json", "http://app.example/client.json"]) {
      const refused = yield* Effect.either(documents.fetch(url))
      expect(Either.isLeft(refused) && refused.left.reason).toContain("must use https")
    }
    expect(dialed).toEqual([])
  }))

it("keeps documents between 5 minutes and 24 hours, by their Cache-Control max-age", () => {
  expect(cacheLifetimeMs(undefined)).toBe(5 * MINUTE_MS)
  expect(cacheLifetimeMs("no-store")).toBe(5 * MINUTE_MS)
  expect(cacheLifetimeMs("s-maxage=3600")).toBe(5 * MINUTE_MS)
  expect(cacheLifetimeMs("max-age=60")).toBe(5 * MINUTE_MS)
  expect(cacheLifetimeMs("public, max-age=3600")).toBe(HOUR_MS)
  expect(cacheLifetimeMs("max-age=\"7200\", must-revalidate")).toBe(2 * HOUR_MS)
  expect(cacheLifetimeMs("max-age=604800")).toBe(24 * HOUR_MS)
})
