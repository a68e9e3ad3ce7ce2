// The ChatPainter on @napi-rs/canvas (Skia): decodes the conversation's pictures, lays the chat out
// and draws the requested frame as an opaque PNG.
import { createCanvas, type Image, loadImage } from "@napi-rs/canvas"
import { Effect, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { pictureProblem } from "../../domain/picture-limits.ts"
import { type ChatPaintRequest, ChatPainter, type ChatPicture } from "../../domain/ports/chat-painter.ts"
import { pictureSize } from "../imagery/picture-size.ts"
import { encodeOpaquePng } from "../imagery/png-encoder.ts"
import { ChatScreen } from "./chat-screen.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The tallest `fit` picture: past it a conversation is cut at the top, as a long scroll would be. */
const MAX_FIT_HEIGHT = 16_000

/**
 * Decodes the conversation's pictures; one that is not a picture fails the work, naming its key. Each
 * is measured from its header first: a file stored before the limits existed may still be huge.
 */
export const decodeImages = (images: ReadonlyMap<string, Uint8Array>) =>
  Effect.forEach([...images], ([key, bytes]) =>
    Effect.gen(function*() {
      const undecodable = new WorkFailed({ message: `The picture ${key} could not be decoded; upload a PNG, JPEG or WebP.` })
      const size = pictureSize(bytes)
      if (size === null) return yield* undecodable
      const problem = pictureProblem(`The picture ${key}`, "still", size)
      if (problem !== null) return yield* new WorkFailed({ message: problem })
      const image = yield* Effect.tryPromise({ try: () => loadImage(Buffer.from(bytes)), catch: () => undecodable })
      return [key, image] as const
    }), { concurrency: 4 }).pipe(
    Effect.map((pairs) => new Map<string, Image>(pairs))
  )

/** Draws one frame of the chat: also what fake-text videos call for each of their frames. */
export const paintChat = (request: ChatPaintRequest): Effect.Effect<ChatPicture, WorkFailed> =>
  Effect.gen(function*() {
    const images = yield* decodeImages(request.images)
    const measure = createCanvas(1, 1).getContext("2d")
    const screen = new ChatScreen(measure, request.conversation, request.theme, images, request.width)
    const height = request.height === "fit" ? Math.min(MAX_FIT_HEIGHT, screen.fitHeight(request.state)) : request.height
    const canvas = createCanvas(request.width, height)
    screen.draw(canvas.getContext("2d"), height, request.state)
    const png = yield* Effect.promise(() => encodeOpaquePng(canvas.data(), request.width, height))
    return { png, width: request.width, height }
  }).pipe(withSpan("CanvasChatPainter.paint"))

export const CanvasChatPainterLive = Layer.succeed(ChatPainter, ChatPainter.of({ paint: paintChat }))
