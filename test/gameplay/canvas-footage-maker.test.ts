// Gameplay footage: exactly the asked frames, raw RGBA at a modest size; moving like a game (not still, not
// noise); seeded; drawn only as fast as the renderer takes it.
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CanvasFootageMakerLive } from "../../adapters/gameplay/canvas-footage-maker.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { GameKind } from "../../domain/gameplay.ts"
import type { ByteSink } from "../../domain/ports/animated-frames.ts"
import { FootageMaker, type FootageRequest } from "../../domain/ports/footage-maker.ts"

const W = 360
const H = 640
const GAMES: ReadonlyArray<GameKind> = ["runner", "racer", "blocks"]

const footage = (request: Partial<FootageRequest> & { game: GameKind }) =>
  Effect.flatMap(FootageMaker, (maker) => maker.footage({ seed: 1, seconds: 2, width: W, height: H, frameRate: 30, ...request }))

/** The footage played into a sink that keeps every frame (or stops taking them after `take`). */
const played = (request: Partial<FootageRequest> & { game: GameKind }, take = Infinity) =>
  Effect.gen(function*() {
    const made = yield* footage(request)
    const frames: Array<Buffer> = []
    const sink: ByteSink = async (bytes) => {
      frames.push(Buffer.from(bytes))
      return frames.length < take
    }
    const pictures = yield* made.play(sink)
    return { made, frames, pictures }
  })

/** Mean absolute difference of two RGBA frames' colours (0..255). */
const difference = (a: Buffer, b: Buffer): number => {
  let sum = 0
  for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!)
  return sum / (a.length / 4 * 3)
}

layer(CanvasFootageMakerLive)("CanvasFootageMaker", (it) => {
  describe.each(GAMES)("%s", (game) => {
    it.effect("is exactly the asked frames, raw RGBA at the asked size and rate, opaque", () =>
      Effect.gen(function*() {
        const { made, frames, pictures } = yield* played({ game })
        expect(made.frames).toBe(60)
        expect(made.encoding).toEqual({ _tag: "RawRgba", width: W, height: H, frameRate: 30 })
        expect(pictures).toBe(60)
        expect(frames).toHaveLength(60)
        expect(frames.every((frame) => frame.length === W * H * 4)).toBe(true)
        expect(frames[30]!.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true)
      }))

    it.effect("moves like continuous play: frames half a second apart differ, but are nothing like noise", () =>
      Effect.gen(function*() {
        const { frames } = yield* played({ game })
        const other = (yield* played({ game, seed: 2 })).frames
        for (const i of [15, 30, 45]) {
          const moved = difference(frames[i - 15]!, frames[i]!)
          // Unrelated random pixels differ by about 85.
          expect(moved).toBeGreaterThan(1)
          expect(moved).toBeLessThan(45)
        }
        // Another seed: another game, not the same picture.
        expect(difference(frames[30]!, other[30]!)).toBeGreaterThan(3)
      }))

    it.effect("gives the same pixels for the same seed", () =>
      Effect.gen(function*() {
        const a = (yield* played({ game, seed: 9, seconds: 1 })).frames
        const b = (yield* played({ game, seed: 9, seconds: 1 })).frames
        expect(a.every((frame, i) => frame.equals(b[i]!))).toBe(true)
      }))
  })

  it.effect("draws big footage small, the same shape, for the renderer to scale up; 60 fps counts its own frames", () =>
    Effect.gen(function*() {
      const made = yield* footage({ game: "racer", seconds: 0.5, width: 1080, height: 1920, frameRate: 60 })
      expect(made.frames).toBe(30)
      expect(made.encoding).toEqual({ _tag: "RawRgba", width: 540, height: 960, frameRate: 60 })
    }))

  it.effect("stops drawing, without failing, once the renderer stops reading", () =>
    Effect.gen(function*() {
      const { pictures, frames } = yield* played({ game: "blocks" }, 5)
      expect(pictures).toBe(5)
      expect(frames).toHaveLength(5)
    }))

  it.effect("refuses odd sizes and empty lengths", () =>
    Effect.gen(function*() {
      const odd = yield* Effect.flip(footage({ game: "blocks", width: 361 }))
      expect(odd).toBeInstanceOf(WorkFailed)
      expect(odd.message).toContain("361x640")
      const empty = yield* Effect.flip(footage({ game: "blocks", seconds: 0 }))
      expect(empty.message).toContain("0 was asked for")
    }))
})
