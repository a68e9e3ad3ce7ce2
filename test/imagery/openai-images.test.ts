// The OpenAI images adapter against a local stand-in that speaks the documented /v1/images/generations shapes.
import { mkdtemp, readFile, rm } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { OpenAiImagesLive, type OpenAiImagesConfig } from "../../adapters/imagery/openai-images.ts"
import { ART_STYLES } from "../../domain/art-styles.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { Illustrator } from "../../domain/ports/illustrator.ts"
import { type StandIn, answerJson, openAiInvalidKey, startStandIn } from "../support/stand-in.ts"
import { WorkspaceKeysLive } from "../support/workspace-keys.ts"

const KEY = "sk-test-key"
const style = ART_STYLES.find((s) => s.id === "watercolor")!

let received: Array<{ readonly path: string; readonly contentType: string; readonly body: Record<string, unknown> }> = []

/**
 * A picture of the asked size: red left half, blue right half, and a green band along the top quarter,
 * so the test can tell how it was scaled and cropped.
 */
const picture = (size: string) => {
  const [width, height] = size.split("x").map(Number) as [number, number]
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#ff0000"
  ctx.fillRect(0, 0, width / 2, height)
  ctx.fillStyle = "#0000ff"
  ctx.fillRect(width / 2, 0, width / 2, height)
  ctx.fillStyle = "#00ff00"
  ctx.fillRect(0, 0, width, height / 4)
  return canvas.toBuffer("image/png").toString("base64")
}

const standIn = async (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  const json = (status: number, body: unknown) => answerJson(res, status, body)
  if (req.headers.authorization !== `Bearer ${KEY}`) {
    return json(401, openAiInvalidKey)
  }
  const body = JSON.parse(requestBody.toString("utf8")) as Record<string, unknown>
  received.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", body })
  if (body.response_format !== "b64_json" || typeof body.size !== "string") {
    return json(400, { error: { message: "Unsupported request", type: "invalid_request_error" } })
  }
  json(200, { created: 1700000000, data: [{ b64_json: picture(body.size), revised_prompt: String(body.prompt) }] })
}

let server: StandIn
let baseUrl = ""
let dir = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openai-images-"))
  server = await startStandIn(standIn)
  baseUrl = server.baseUrl
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

const illustrate = (width: number, height: number, config: Partial<OpenAiImagesConfig> = {}, workspaceId?: string) =>
  Effect.gen(function*() {
    const outputPng = join(dir, `${width}x${height}.png`)
    const illustrator = yield* Illustrator
    yield* illustrator.illustrate({
      prompt: "a lighthouse on a cliff",
      style,
      seed: 1,
      width,
      height,
      outputPng,
      ...(workspaceId === undefined ? {} : { workspaceId })
    })
    const image = yield* Effect.promise(async () => loadImage(await readFile(outputPng)))
    const canvas = createCanvas(image.width, image.height)
    const ctx = canvas.getContext("2d")
    ctx.drawImage(image, 0, 0)
    const colourAt = (x: number, y: number) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)]
    return { width: image.width, height: image.height, colourAt }
  }).pipe(Effect.provide(
    OpenAiImagesLive({ baseUrl, apiKey: Redacted.make(KEY), model: "dall-e-3", ...config }).pipe(
      Layer.provide(WorkspaceKeysLive({ "ws-byok": KEY }))
    )
  ))

describe("OpenAiImages", () => {
  it.effect("asks for the picture as documented, with the style's prompt suffix", () =>
    Effect.gen(function*() {
      received = []
      yield* illustrate(360, 640)
      expect(received).toEqual([{
        path: "/v1/images/generations",
        contentType: "application/json",
        body: {
          model: "dall-e-3",
          prompt: `a lighthouse on a cliff, ${style.promptSuffix}`,
          size: "1024x1792",
          n: 1,
          response_format: "b64_json"
        }
      }])
    }))

  it.effect("asks for the supported size nearest in shape", () =>
    Effect.gen(function*() {
      received = []
      yield* illustrate(640, 360)
      yield* illustrate(500, 500)
      yield* illustrate(1080, 1350)
      expect(received.map((r) => r.body.size)).toEqual(["1792x1024", "1024x1024", "1024x1024"])
    }))

  it.effect("scales and crops the picture to exactly the size asked", () =>
    Effect.gen(function*() {
      // 1792x1024 covers 600x600 at a scale of 600/1024: the sides are cropped evenly, nothing is squashed.
      const fitted = yield* illustrate(600, 600)
      expect([fitted.width, fitted.height]).toEqual([600, 600])
      received = []
      const wide = yield* illustrate(800, 300)
      expect(received[0]!.body.size).toBe("1792x1024")
      expect([wide.width, wide.height]).toEqual([800, 300])
      // Covering 800x300 scales by 800/1792, so the picture is 457 tall and 78 px are cut from top and bottom:
      // the green band (114 px tall at that scale) shows 36 px at the top.
      expect(wide.colourAt(200, 20)).toEqual([0, 255, 0])
      expect(wide.colourAt(200, 60)).toEqual([255, 0, 0])
      expect(wide.colourAt(600, 200)).toEqual([0, 0, 255])
    }))

  it.effect("accepts a base URL that already ends in /v1", () =>
    Effect.gen(function*() {
      received = []
      yield* illustrate(360, 640, { baseUrl: `${baseUrl}/v1/` })
      expect(received.map((r) => r.path)).toEqual(["/v1/images/generations"])
    }))

  it.effect("reports the status and the provider's own message when it refuses the key", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(illustrate(360, 640, { apiKey: Redacted.make("wrong-key") }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain("HTTP 401")
      expect(error.message).toContain("Incorrect API key provided")
    }))

  it.effect("draws with a BYOK workspace's own key instead of the server's", () =>
    Effect.gen(function*() {
      const serverKeyOnly = yield* Effect.flip(illustrate(360, 640, { apiKey: Redacted.make("wrong-key") }))
      expect(serverKeyOnly.message).toContain("HTTP 401")
      expect((yield* illustrate(360, 640, { apiKey: Redacted.make("wrong-key") }, "ws-byok")).width).toBe(360)
    }))

  it.effect("says so when nothing answers", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(illustrate(360, 640, { baseUrl: "http://127.0.0.1:9" }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain("could not be reached")
    }))
})
