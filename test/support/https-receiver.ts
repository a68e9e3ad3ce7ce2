// An https server on 127.0.0.1 for tests: records every request and answers as told (status, delay, or never).
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { testTls } from "./tls.ts"

export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: string
  /** Monotonic milliseconds (performance.now()) when the request's body had fully arrived. */
  readonly arrivedAtMs: number
}

export type ReceiverBehaviour =
  | {
      readonly status: number
      readonly headers?: Readonly<Record<string, string>>
      readonly body?: string | Buffer
      readonly delayMs?: number
    }
  | { readonly hang: true }

/** One answer for every request, or an answer chosen per request (by path, say). */
export type ReceiverAnswer = ReceiverBehaviour | ((request: ReceivedRequest) => ReceiverBehaviour)

export interface HttpsReceiver {
  /** Base URL, e.g. https://127.0.0.1:41234 (no trailing slash). */
  readonly url: string
  readonly requests: ReadonlyArray<ReceivedRequest>
  readonly setBehaviour: (answer: ReceiverAnswer) => void
  readonly close: () => Promise<void>
}

/** `trusted: false` serves a self-signed certificate the workers do not trust. Answers 200 until told otherwise. */
export const startHttpsReceiver = async (options: { readonly trusted?: boolean } = {}): Promise<HttpsReceiver> => {
  const tls = testTls()
  const trusted = options.trusted ?? true
  const requests: Array<ReceivedRequest> = []
  let behaviour: ReceiverAnswer = { status: 200 }
  const timers = new Set<NodeJS.Timeout>()
  const server = createServer(
    { cert: trusted ? tls.serverCert : tls.untrustedCert, key: trusted ? tls.serverKey : tls.untrustedKey },
    (request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const received: ReceivedRequest = {
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          arrivedAtMs: performance.now()
        }
        requests.push(received)
        const answer = typeof behaviour === "function" ? behaviour(received) : behaviour
        if ("hang" in answer) return
        const respond = () => {
          response.writeHead(answer.status, answer.headers)
          response.end(answer.body)
        }
        if (answer.delayMs === undefined) return respond()
        const timer = setTimeout(() => {
          timers.delete(timer)
          respond()
        }, answer.delayMs)
        timers.add(timer)
      })
    }
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    setBehaviour: (next) => {
      behaviour = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer)
        server.close(() => resolve())
        // Hanging exchanges would keep close() waiting forever.
        server.closeAllConnections()
      })
  }
}

/** The receiver as a scoped resource: closed when the test's scope ends. */
export const httpsReceiver = (options: { readonly trusted?: boolean } = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startHttpsReceiver(options)),
    (receiver) => Effect.promise(receiver.close)
  )
