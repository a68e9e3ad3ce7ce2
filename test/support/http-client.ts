// Small fetch helpers for end-to-end tests against a service on loopback.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createReadStream } from "node:fs"
import { stat } from "node:fs/promises"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export const call = async (
  baseUrl: string,
  path: string,
  options: {
    readonly method?: string
    readonly token?: string
    readonly json?: unknown
    readonly raw?: string
    readonly form?: FormData
    readonly headers?: Record<string, string>
  } = {}
): Promise<Answer> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let body: string | FormData | undefined
  if (options.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(options.json)
  } else if (options.raw !== undefined) {
    headers["content-type"] = "application/json"
    body = options.raw
  } else if (options.form !== undefined) {
    body = options.form
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    ...(body === undefined ? {} : { body })
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed }
}

/** Polls a video until `done` holds (default: no longer processing and no export running). */
export const waitForVideo = async (
  baseUrl: string,
  token: string,
  id: string,
  done: (video: any) => boolean = (v) => v.status !== "processing" && v.export?.status !== "rendering",
  timeoutMs = 90_000
): Promise<any> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { status, body } = await call(baseUrl, `/v1/videos/${id}`, { token })
    if (status !== 200) throw new Error(`GET video ${id}: ${status} ${JSON.stringify(body)}`)
    if (done(body)) return body
    if (Date.now() > deadline) throw new Error(`video ${id} still ${JSON.stringify(body)}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

/** Polls a caption removal until it leaves `processing`. */
export const waitForRemoval = async (baseUrl: string, token: string, id: string, timeoutMs = 150_000): Promise<any> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { status, body } = await call(baseUrl, `/v1/caption-remover/${id}`, { token })
    if (status !== 200) throw new Error(`GET caption removal ${id}: ${status} ${JSON.stringify(body)}`)
    if (body.status !== "processing") return body
    if (Date.now() > deadline) throw new Error(`removal ${id} still ${JSON.stringify(body)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** A plain http file server on 127.0.0.1 serving the given files by name (a stand-in for a public file host). */
export const serveFiles = async (files: Readonly<Record<string, { path: string; contentType: string }>>) => {
  const server: Server = createServer(async (request, response) => {
    const file = files[(request.url ?? "/").slice(1)]
    if (file === undefined) {
      response.writeHead(404).end("not found")
      return
    }
    const { size } = await stat(file.path)
    response.writeHead(200, { "content-type": file.contentType, "content-length": size })
    createReadStream(file.path).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
