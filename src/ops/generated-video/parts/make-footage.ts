// Built-in footage (a gameplay video's, or a chat's or quiz's backdrop): the seeded mini-game played
// for as long as the video lasts, stored once (the caller saves its id, so a retried job finds it made).
import { Effect, Option } from "effect"
import { evenSize } from "../../../../domain/even-pixels.ts"
import type { GameKind } from "../../../../domain/gameplay.ts"
import { FootageMaker } from "../../../../domain/ports/footage-maker.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { storeFile } from "../../../shared/media/store-file.ts"
import { workspaceOf } from "./narrate.ts"

/** Footage is made at 30 fps: a 60 fps render repeats each frame, which a mini-game never shows. */
const FOOTAGE_FRAME_RATE = 30
/**
 * Footage is made at half the video's size: the games draw at about that size anyway, and the render
 * scales it up under the captions, so a full-size intermediate would only cost encoding time.
 */
const FOOTAGE_SCALE = 0.5

const scaled = (n: number): number => evenSize(n * FOOTAGE_SCALE)

export const makeFootage = (video: VideoRecord, seed: number, game: GameKind, dir: string) =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const length = (yield* videos.getById(video.id).pipe(Effect.map(Option.getOrThrow))).durationSeconds ?? 0
    const output = `${dir}/footage.mp4`
    yield* (yield* FootageMaker).make({
      game,
      seed,
      seconds: length,
      width: scaled(video.width ?? 1080),
      height: scaled(video.height ?? 1920),
      frameRate: FOOTAGE_FRAME_RATE,
      outputMp4: output
    })
    return yield* storeFile(yield* workspaceOf(video), { path: output, name: `${game}.mp4`, contentType: "video/mp4" })
  })
