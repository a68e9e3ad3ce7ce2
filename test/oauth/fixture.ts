// The OAuth use cases over the memory stores, and the steps of the flow as a client takes them.
import { randomBytes } from "node:crypto"
import { lookup as dnsLookup } from "node:dns"
import { Effect, Layer, Option } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { makeClientMetadataDocuments } from "../../adapters/oauth/client-metadata-documents.ts"
import { directConnect, makeOutboundClient } from "../../adapters/outbound/outbound-client.ts"
import { ClientMetadataDocuments } from "../../domain/ports/client-metadata-documents.ts"
import { UserStore } from "../../domain/ports/user-store.ts"
import type { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { pkceS256 } from "../../src/kernel/secrets.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { approveAuthorization } from "../../src/ops/oauth/approve-authorization.ts"
import { checkAuthorizationRequest } from "../../src/ops/oauth/authorization-request.ts"
import { registerClient } from "../../src/ops/oauth/register-client.ts"
import { exchangeToken } from "../../src/ops/oauth/token-exchange.ts"
import { createWorkspaceNow } from "../../src/ops/workspaces/create-workspace.ts"

export const BASE_URL = "http://127.0.0.1:8080"
export const RESOURCE = `${BASE_URL}/mcp`
export const REDIRECT = "http://127.0.0.1:9/callback"

/** Client metadata documents served on loopback, over http too, as OUTBOUND_ALLOW_LOOPBACK=1 allows; a fresh cache per build. */
export const LoopbackClientMetadata = Layer.sync(ClientMetadataDocuments, () =>
  makeClientMetadataDocuments({
    client: makeOutboundClient({ allowLoopback: true, resolve: dnsLookup, connect: directConnect }),
    loopbackHttp: true
  }))

/** A fresh, empty service per test: provide it inside each `it.effect`, so TestClock drives it. */
export const TestStores = Layer.mergeAll(
  MemoryStoresLive,
  LoopbackClientMetadata,
  ServiceConfig.layer({ baseUrl: BASE_URL, workDir: "/tmp" })
)

/** A PKCE verifier: 43 characters of base64url. */
export const newVerifier = (): string => randomBytes(32).toString("base64url")

/** Admin operations never read the current workspace; their handler types still name it (as every operation's do). */
export const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect as Effect.Effect<A, E, Exclude<R, CurrentWorkspace>>

export const aWorkspace = (ownerEmail = "owner@example.com", name = "Studio") =>
  createWorkspaceNow({ name, ownerEmail, plan: "pro", credits: 0 })

export const userIdOf = (email: string) =>
  Effect.flatMap(UserStore, (users) => users.findUserByEmail(email)).pipe(Effect.map(Option.getOrThrow), Effect.map((u) => u.id))

export const aClient = (metadata: Record<string, unknown> = {}) =>
  registerClient({ client_name: "Test app", redirect_uris: [REDIRECT], ...metadata }).pipe(
    Effect.orDie,
    Effect.map((body) => body.client_id as string)
  )

export const authorizeParams = (clientId: string, verifier: string, changes: Record<string, string | undefined> = {}) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: REDIRECT,
  code_challenge: pkceS256(verifier),
  code_challenge_method: "S256",
  state: "state-1",
  resource: RESOURCE,
  ...changes
})

/** Checks the request, approves it for the workspace and returns the code from the redirect. */
export const approvedCode = (clientId: string, userId: string, workspaceId: string, verifier: string) =>
  Effect.gen(function*() {
    const request = yield* checkAuthorizationRequest(authorizeParams(clientId, verifier)).pipe(Effect.orDie)
    const { redirectTo } = yield* approveAuthorization(request, userId, workspaceId).pipe(Effect.orDie)
    return new URL(redirectTo).searchParams.get("code")!
  })

export const exchangeCode = (clientId: string, code: string, verifier: string, changes: Record<string, string | undefined> = {}) =>
  exchangeToken({
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    resource: RESOURCE,
    ...changes
  })

export const refreshWith = (clientId: string, refreshToken: string, changes: Record<string, string | undefined> = {}) =>
  exchangeToken({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, resource: RESOURCE, ...changes })

/** A workspace, its owner, a registered client and the tokens of an approved grant. */
export const connectedApp = (ownerEmail = "owner@example.com") =>
  Effect.gen(function*() {
    const { workspaceId } = yield* aWorkspace(ownerEmail)
    const userId = yield* userIdOf(ownerEmail)
    const clientId = yield* aClient()
    const verifier = newVerifier()
    const code = yield* approvedCode(clientId, userId, workspaceId, verifier)
    const tokens = yield* exchangeCode(clientId, code, verifier).pipe(Effect.orDie)
    return { workspaceId, userId, clientId, tokens }
  })
