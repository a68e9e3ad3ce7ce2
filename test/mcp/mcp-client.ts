// The real MCP SDK client against /mcp with a static bearer (as a client that can only send headers).
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { request } from "node:http"

export const connectMcp = async (baseUrl: string, token: string): Promise<Client> => {
  const client = new Client({ name: "reelwright-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } }
  }))
  return client
}

/** The text of a tool result, and the JSON in it when it is JSON. */
export const textOf = (result: unknown): string => {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? []
  return content.map((c) => c.text ?? "").join("\n")
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } }
}

export interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/**
 * A POST to /mcp with exactly the headers given, Host included (fetch would set its own), through
 * node:http, like a browser on a rebinding page or a client on another loopback name.
 */
export const rawPost = (baseUrl: string, headers: Record<string, string>, body: unknown): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl}/mcp`)
    const payload = JSON.stringify(body)
    const outgoing = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": Buffer.byteLength(payload), ...headers }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let parsed: unknown = text
        try {
          parsed = JSON.parse(text)
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed })
      })
    })
    outgoing.on("error", reject)
    outgoing.end(payload)
  })
