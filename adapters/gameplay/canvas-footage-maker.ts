// FootageMaker on @napi-rs/canvas and ffmpeg: each frame of the game is drawn at a modest size and piped raw
// into ffmpeg, which scales it up to the asked size and encodes H.264.
import { spawn } from "node:child_process"
import { once } from "node:events"
import { Config, Effect, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { FootageMaker, type FootageRequest } from "../../domain/ports/footage-maker.ts"
import { x264Args } from "../media/ffmpeg-engine.ts"
import { lastError, QUIET } from "../media/ffmpeg-process.ts"
import { gameFrames, type GameFrames } from "./game-frames.ts"
import { evenSize } from "../../domain/even-pixels.ts"

const MIN_SIDE = 16
const MAX_SIDE = 4096
const MAX_SECONDS = 3600
/** Frames are drawn at no more than 540x960's worth of pixels; the footage sits under captions, so motion matters more than crispness. */
const MAX_DRAWN_PIXELS = 540 * 960
const STDERR_TAIL_CHARS = 16_000
/**
 * Footage is an intermediate that the render putting captions over it encodes again, and at 1080x1920 the
 * encoder, not the drawing, is the slow part (veryfast takes about three times as long): speed beats size here.
 */
const FOOTAGE_PRESET = "ultrafast"

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

/**
 * Draws `count` frames into ffmpeg's stdin, waiting for it to drain whenever it is full, so at most a frame or
 * two sits in memory. Interrupting kills ffmpeg and stops the drawing.
 */
const pipeFrames = (
  ffmpeg: string,
  args: ReadonlyArray<string>,
  frames: GameFrames,
  count: number,
  onProgress: ((fraction: number) => void) | undefined
) =>
  Effect.async<{ code: number | null; stderr: string }>((resume) => {
    const child = spawn(ffmpeg, args, { stdio: ["pipe", "ignore", "pipe"] })
    let stderr = ""
    let stopped = false
    let done = false
    let reported = -1
    const finish = (result: Effect.Effect<{ code: number | null; stderr: string }>) => {
      if (!done) resume(result)
      done = true
    }
    child.stderr.setEncoding("utf8")
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)
    })
    // A write after ffmpeg has quit fails with EPIPE; its exit code and stderr say why it quit.
    child.stdin.on("error", () => {
      stopped = true
    })
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve))
    child.on("error", (error) => {
      stopped = true
      finish(Effect.die(new Error(`Could not run ${ffmpeg}: ${error.message}`)))
    })
    const pump = async () => {
      let failure: unknown
      try {
        for (let i = 0; i < count && !stopped; i++) {
          if (!child.stdin.write(frames.next())) await Promise.race([once(child.stdin, "drain"), closed])
          const percent = Math.floor(((i + 1) / count) * 100)
          if (percent > reported && percent < 100) {
            reported = percent
            onProgress?.(percent / 100)
          }
        }
      } catch (error) {
        // A broken pipe is ffmpeg's failure, told by its exit; anything else is a bug in the drawing.
        if (!stopped) failure = error
        child.kill("SIGKILL")
      }
      child.stdin.end()
      const code = await closed
      finish(failure === undefined ? Effect.succeed({ code, stderr }) : Effect.die(failure))
    }
    void pump()
    return Effect.sync(() => {
      stopped = true
      child.kill("SIGKILL")
    })
  })

export const CanvasFootageMakerLive = Layer.effect(
  FootageMaker,
  Effect.gen(function*() {
    const ffmpeg = yield* Config.string("FFMPEG_PATH").pipe(Config.withDefault("ffmpeg"))
    return FootageMaker.of({
      make: (request) =>
        Effect.gen(function*() {
          const problem = invalid(request)
          if (problem !== undefined) return yield* new WorkFailed({ message: problem })
          const count = Math.round(request.seconds * request.frameRate)
          const drawn = drawnSize(request.width, request.height)
          const scaled = drawn.width !== request.width || drawn.height !== request.height
          const args = [
            ...QUIET,
            "-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${drawn.width}x${drawn.height}`, "-r", String(request.frameRate), "-i", "pipe:0",
            ...(scaled ? ["-vf", `scale=${request.width}:${request.height}:flags=bicubic`] : []),
            ...x264Args(FOOTAGE_PRESET), "-an", "-movflags", "+faststart",
            request.outputMp4
          ]
          const frames = gameFrames(request.game, request.seed, drawn.width, drawn.height, request.frameRate)
          const result = yield* pipeFrames(ffmpeg, args, frames, count, request.onProgress)
          if (result.code !== 0) {
            return yield* new WorkFailed({ message: `Making the ${request.game} gameplay footage failed: ${lastError(result.stderr, request.outputMp4)}` })
          }
          request.onProgress?.(1)
        }).pipe(
          Effect.withSpan("CanvasFootageMaker.make", {
            attributes: { game: request.game, seed: request.seed, seconds: request.seconds, width: request.width, height: request.height }
          })
        )
    })
  })
)
