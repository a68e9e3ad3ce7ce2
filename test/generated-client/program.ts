// A client program as an API user would write it: types generated from /openapi.json by
// openapi-typescript (reelwright-api.ts, written by the test that runs this), calls by openapi-fetch.
// The test type-checks it, so a document that types `limit` as text or an id as anything but a string
// stops it compiling, then runs it against a live server.
import createClient from "openapi-fetch"
import type { paths } from "./reelwright-api.ts"

export interface Outcome {
  readonly id: string
  readonly status: "processing" | "completed" | "failed"
  readonly polls: number
  readonly listed: ReadonlyArray<string>
  readonly tooLong: { readonly status: number; readonly code: string; readonly field: unknown }
  readonly missing: { readonly status: number; readonly code: string }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const run = async (baseUrl: string, token: string, sourceUrl: string): Promise<Outcome> => {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } })

  const created = await client.POST("/v1/caption-videos", {
    body: { url: sourceUrl },
    params: { header: { "idempotency-key": `program-${sourceUrl}` } }
  })
  if (created.error !== undefined) throw new Error(`create: ${created.error.error.message}`)

  let video = created.data
  let polls = 0
  while (video.status === "processing") {
    await sleep(250)
    const got = await client.GET("/v1/videos/{id}", { params: { path: { id: created.data.id } } })
    if (got.error !== undefined) throw new Error(`get: ${got.error.error.message}`)
    video = got.data
    polls++
  }

  const page = await client.GET("/v1/videos", { params: { query: { limit: 1 } } })
  if (page.error !== undefined) throw new Error(`list: ${page.error.error.message}`)

  // @ts-expect-error `limit` is an integer: text does not compile.
  void client.GET("/v1/videos", { params: { query: { limit: "1" } } })

  // Compiles (an integer), but over the limit of 100: the server says which field.
  const tooLong = await client.GET("/v1/videos", { params: { query: { limit: 500 } } })
  const missing = await client.GET("/v1/videos/{id}", { params: { path: { id: "5f0c0d2e-1b7a-4c3d-9e8f-0a1b2c3d4e5f" } } })

  return {
    id: video.id,
    status: video.status,
    polls,
    listed: page.data.data.map((v) => v.id),
    tooLong: {
      status: tooLong.response.status,
      code: tooLong.error?.error.code ?? "",
      field: (tooLong.error?.error.details as { field?: unknown } | undefined)?.field
    },
    missing: { status: missing.response.status, code: missing.error?.error.code ?? "" }
  }
}
