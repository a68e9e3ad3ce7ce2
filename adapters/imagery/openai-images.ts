// Illustrations by an OpenAI-compatible images service: POST /v1/images/generations, fitted to the exact size asked.
import { writeFile } from "node:fs/promises"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Effect, Layer, Redacted, Schema } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { Illustrator } from "../../domain/ports/illustrator.ts"
import { ProviderKeys } from "../../domain/ports/provider-keys.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"
import { encodeOpaquePng } from "./png-encoder.ts"
import { openAiErrorMessage } from "../hosted/openai-error-message.ts"
import { requestProvider } from "../hosted/provider-request.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface OpenAiImagesConfig {
  /** e.g. https://api.openai.com; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  /** The server's key; a BYOK workspace's own replaces it for that workspace's pictures. */
  readonly apiKey: Redacted.Redacted<string>
  /** e.g. dall-e-3. */
  readonly model: string
}

/** Image generation can take a minute or more for a large picture. */
const TIMEOUT = "3 minutes"

/** The sizes the images API draws. */
const SIZES: ReadonlyArray<readonly [number, number]> = [[1024, 1024], [1024, 1792], [1792, 1024]]

/** The supported size closest in shape to width x height; the picture is then scaled and cropped to fit. */
export const nearestImageSize = (width: number, height: number): readonly [number, number] => {
  const shape = (w: number, h: number) => Math.abs(Math.log(w / h) - Math.log(width / height))
  return SIZES.reduce((best, size) => (shape(...size) < shape(...best) ? size : best))
}

const ImagesResponse = Schema.parseJson(Schema.Struct({
  data: Schema.NonEmptyArray(Schema.Struct({ b64_json: Schema.String }))
}))


/** Scales the picture to cover width x height and crops the overflow evenly; a transparent picture lands on black. */
const fitPng = async (image: Buffer, width: number, height: number): Promise<Buffer> => {
  const picture = await loadImage(image)
  const scale = Math.max(width / picture.width, height / picture.height)
  const w = picture.width * scale
  const h = picture.height * scale
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#000000"
  ctx.fillRect(0, 0, width, height)
  ctx.imageSmoothingQuality = "high"
  ctx.drawImage(picture, (width - w) / 2, (height - h) / 2, w, h)
  return encodeOpaquePng(canvas.data(), width, height)
}

export const OpenAiImagesLive = (config: OpenAiImagesConfig) =>
  Layer.effect(
    Illustrator,
    Effect.map(ProviderKeys, (keys) => Illustrator.of({
      name: "openai",
      // Each picture takes seconds of the service's time: a video's scenes are asked side by side, a few at
      // once, well inside the service's per-minute image limits.
      concurrency: 4,
      illustrate: (request) =>
        Effect.gen(function*() {
          const [w, h] = nearestImageSize(request.width, request.height)
          const apiKey = yield* apiKeyFor(keys, "openai", request.workspaceId, config.apiKey)
          const body = yield* requestProvider({
            provider: "The image service",
            baseUrl: config.baseUrl,
            path: "/v1/images/generations",
            action: "draw the picture",
            init: {
              method: "POST",
              headers: { authorization: `Bearer ${Redacted.value(apiKey)}`, "content-type": "application/json" },
              body: JSON.stringify({
                model: config.model,
                prompt: `${request.prompt}, ${request.style.promptSuffix}`,
                size: `${w}x${h}`,
                n: 1,
                response_format: "b64_json"
              })
            },
            errorMessage: openAiErrorMessage
          }).pipe(Effect.map((bytes) => bytes.toString("utf8")))
          const answer = yield* Schema.decodeUnknown(ImagesResponse)(body).pipe(
            Effect.mapError(() =>
              new WorkFailed({
                message: `The image service at ${config.baseUrl} returned no image: it must answer data[0].b64_json ` +
                  `for response_format=b64_json.`
              })
            )
          )
          const png = yield* Effect.tryPromise({
            try: () => fitPng(Buffer.from(answer.data[0].b64_json, "base64"), request.width, request.height),
            catch: (e) => new WorkFailed({ message: `The image service returned a picture that could not be decoded: ${String(e)}` })
          })
          yield* Effect.tryPromise({
            try: () => writeFile(request.outputPng, png),
            catch: (e) => new WorkFailed({ message: `Could not write the illustration to ${request.outputPng}: ${String(e)}` })
          })
        }).pipe(
          Effect.timeoutFail({
            duration: TIMEOUT,
            onTimeout: () => new WorkFailed({ message: `The image service did not answer within ${TIMEOUT}.` })
          }),
          withSpan("OpenAiImages.illustrate")
        )
    }))
  )
