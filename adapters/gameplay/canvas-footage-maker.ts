// FootageMaker on @napi-rs/canvas: each frame of the game is drawn at a modest size and handed raw to the
// renderer as it encodes, which scales it up under the captions. Nothing is encoded twice.
import { Effect, Layer } from "effect"
import { evenSize } from "../../domain/even-pixels.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimatedFrames, ByteSink } from "../../domain/ports/animated-frames.ts"
import { FootageMaker, type FootageRequest } from "../../domain/ports/footage-maker.ts"
import { gameFrames } from "./game-frames.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const MIN_SIDE = 16
const MAX_SIDE = 4096
const MAX_SECONDS = 3600
/** Frames are drawn at no more than 540x960's worth of pixels; the footage sits under captions, so motion matters more than crispness. */
const MAX_DRAWN_PIXELS = 540 * 960

/** The size frames are drawn at: the asked size, or the same shape with fewer pixels. */
const drawnSize = (width: number, height: number): { width: number; height: number } => {
  const k = Math.min(1, Math.sqrt(MAX_DRAWN_PIXELS / (width * height)))
  return k === 1 ? { width, height } : { width: evenSize(width * k), height: evenSize(height * k) }
}

const invalid = (request: FootageRequest): string | undefined => {
  const { width, height, seconds } = request
  if (![width, height].every((n) => Number.isInteger(n) && n % 2 === 0 && n >= MIN_SIDE && n <= MAX_SIDE)) {
    return `Gameplay footage must be even whole pixels from ${MIN_SIDE} to ${MAX_SIDE} a side; ${width}x${height} was asked for.`
  }
  if (!(seconds > 0 && seconds <= MAX_SECONDS) || Math.round(seconds * request.frameRate) < 1) {
    return `Gameplay footage must last from one frame to ${MAX_SECONDS} seconds; ${seconds} was asked for.`
  }
  return undefined
}

export const CanvasFootageMakerLive = Layer.succeed(
  FootageMaker,
  FootageMaker.of({
    footage: (request) =>
      Effect.gen(function*() {
        const problem = invalid(request)
        if (problem !== undefined) return yield* new WorkFailed({ message: problem })
        const frames = Math.round(request.seconds * request.frameRate)
        const drawn = drawnSize(request.width, request.height)
        const play = (sink: ByteSink) =>
          Effect.tryPromise({
            try: async (signal) => {
              const game = gameFrames(request.game, request.seed, drawn.width, drawn.height, request.frameRate)
              let pictures = 0
              while (pictures < frames) {
                signal.throwIfAborted()
                pictures++
                if (!(await sink(game.next()))) break
              }
              return pictures
            },
            catch: (cause) => cause
          }).pipe(
            Effect.tapError((cause) => Effect.logError("the gameplay footage could not be drawn", cause)),
            Effect.mapError(() => new WorkFailed({ message: `The ${request.game} gameplay footage could not be drawn; try again.` })),
            withSpan("CanvasFootageMaker.play", { attributes: { game: request.game, frames } })
          )
        return { frames, encoding: { _tag: "RawRgba", ...drawn, frameRate: request.frameRate }, play } satisfies AnimatedFrames
      }).pipe(
        withSpan("CanvasFootageMaker.footage", {
          attributes: { game: request.game, seed: request.seed, seconds: request.seconds, width: request.width, height: request.height }
        })
      )
  })
)
