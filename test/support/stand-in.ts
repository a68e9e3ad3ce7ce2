// Local stand-ins for the paid providers' HTTP APIs (OpenAI, ElevenLabs): a node:http server on
// loopback whose handler gets the whole request body, and the answers the providers document.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type StandInHandler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void | Promise<void>

export interface StandIn {
  readonly baseUrl: string
  readonly close: () => Promise<void>
}

export const startStandIn = async (handler: StandInHandler): Promise<StandIn> => {
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Array<Buffer> = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      await handler(req, Buffer.concat(chunks), res)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

export const answerJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** OpenAI's 401 body for a wrong key. */
export const openAiInvalidKey = {
  error: {
    message: "Incorrect API key provided: wr***ey. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    param: null,
    code: "invalid_api_key"
  }
}

/** The address of a port that was just closed: connecting to it is refused. */
export const unreachableUrl = async (): Promise<string> => {
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
  await new Promise((resolve) => closed.close(resolve))
  return url
}
