// The HTTP API's types are derived from the catalogue, so a client derived from the API definition
// (HttpApiClient) is typed by each operation's own Schemas: a wrong request does not compile, and a
// right one is decoded into the operation's output type.
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest"
import { ApiError } from "../../adapters/http/api-error.ts"
import { ReelwrightApi } from "../../adapters/http/api.ts"
import { startApp, type TestApp } from "../support/app.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const makeClient = (token: string) =>
  HttpApiClient.make(ReelwrightApi, {
    baseUrl: app.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  })

type Client = Effect.Effect.Success<ReturnType<typeof makeClient>>

const withClient = <A, E>(token: string, use: (client: Client) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.flatMap(makeClient(token), use).pipe(Effect.provide(FetchHttpClient.layer)))

describe("HttpApiClient derived from the API", () => {
  it("calls operations with their own types and gets their outputs decoded", async () => {
    const { token } = await app.createWorkspace()
    const listed = await withClient(token, (client) => client.v1.listVideos({ payload: { limit: 5 } }))
    expectTypeOf(listed.nextCursor).toEqualTypeOf<string | null>()
    expect(listed).toEqual({ data: [], nextCursor: null })

    const missing = await withClient(token, (client) =>
      client.v1.getVideo({ path: { id: "00000000-0000-4000-8000-000000000000" } }).pipe(Effect.flip))
    expect(missing).toBeInstanceOf(ApiError)
    expect(missing).toMatchObject({ status: 404, code: "not_found" })
  })

  it("does not compile a request of another shape", () => {
    const typeOnly = (client: Client) => [
      // @ts-expect-error `limit` is a number
      client.v1.listVideos({ payload: { limit: "5" } }),
      // @ts-expect-error getVideo's path holds `id`
      client.v1.getVideo({ path: { videoId: "x" } }),
      // @ts-expect-error createWorkspace is an admin operation, not in the v1 group
      client.v1.createWorkspace({ payload: { name: "x", ownerEmail: "x@x.test" } }),
      // Creates take an Idempotency-Key header.
      client.v1.createCaptionVideo({ payload: { url: "https://media.example.com/a.mp4" }, headers: { "idempotency-key": "k" } })
    ]
    expect(typeOnly).toBeTypeOf("function")
  })
})
