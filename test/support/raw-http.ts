// A client that misbehaves on purpose, for the abuse suite: bodies that never end, arrive a byte at a
// time or grow without limit, and requests written byte for byte on a socket. Loopback only.
import { request as httpRequest } from "node:http"
import { connect } from "node:net"

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
  /** From the first byte written to the end of the answer (or of the connection). */
  readonly elapsedMs: number
}

const parseAnswer = (text: string, elapsedMs: number): RawAnswer => {
  const [head = "", ...rest] = text.split("\r\n\r\n")
  const [statusLine = "", ...headerLines] = head.split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body: any = rest.join("\r\n\r\n")
  if (headers["transfer-encoding"] === "chunked") body = body.replace(/^[0-9a-f]+\r\n/i, "").replace(/\r\n0\r\n\r\n$/, "")
  try {
    body = JSON.parse(body)
  } catch {
    // not JSON: keep the text
  }
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body, elapsedMs }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Writes `pieces` on a fresh connection, pausing `gapMs` between them, and reads until the server
 * answers and closes, or `timeoutMs` passes (then status 0).
 */
export const rawExchange = (
  port: number,
  pieces: ReadonlyArray<string | Buffer>,
  options: { readonly gapMs?: number; readonly timeoutMs?: number } = {}
): Promise<RawAnswer> =>
  new Promise((resolve) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1")
    const received: Array<Buffer> = []
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseAnswer(Buffer.concat(received).toString("utf8"), Date.now() - started))
    }
    const timer = setTimeout(finish, options.timeoutMs ?? 15_000)
    socket.on("data", (chunk) => {
      received.push(chunk)
      // One answer is all these tests read: stop at its end rather than wait for a keep-alive close.
      const text = Buffer.concat(received).toString("utf8")
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1]
      const headEnd = text.indexOf("\r\n\r\n")
      if (length !== undefined && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length)) finish()
    })
    socket.on("close", finish)
    socket.on("error", finish)
    void (async () => {
      for (const piece of pieces) {
        if (finished || socket.destroyed) return
        socket.write(piece)
        if (options.gapMs !== undefined) await sleep(options.gapMs)
      }
    })()
  })

/**
 * Streams `totalBytes` of `fill` as a chunked body (no Content-Length) until the server answers; the
 * server is expected to answer long before the end. Resolves with its answer, or status 0 when it
 * closed the connection without one.
 */
export const streamBody = (
  url: string,
  options: { readonly method?: string; readonly headers: Record<string, string>; readonly totalBytes: number; readonly fill?: string }
): Promise<RawAnswer> =>
  new Promise((resolve) => {
    const started = Date.now()
    const chunk = Buffer.alloc(64 * 1024, options.fill ?? "a")
    let sent = 0
    let answered = false
    const req = httpRequest(url, { method: options.method ?? "POST", headers: options.headers }, (response) => {
      answered = true
      const parts: Array<Buffer> = []
      response.on("data", (d: Buffer) => parts.push(d))
      response.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8")
        let body: any = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string>, body, elapsedMs: Date.now() - started })
        req.destroy()
      })
    })
    req.on("error", () => {
      if (!answered) resolve({ status: 0, headers: {}, body: "", elapsedMs: Date.now() - started })
    })
    const pump = () => {
      while (!answered && !req.destroyed && sent < options.totalBytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      if (!answered && !req.destroyed) req.end()
    }
    pump()
  })
