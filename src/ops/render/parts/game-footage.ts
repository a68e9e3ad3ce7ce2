// Built-in footage (a gameplay video's, or a chat's or quiz's backdrop): the seeded mini-game played for
// as long as the video lasts, drawn while the render encodes it. The seed makes it the same every render.
import type { GameKind } from "../../../../domain/gameplay.ts"
import { FootageMaker } from "../../../../domain/ports/footage-maker.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { Effect } from "effect"

/** Footage is drawn at 30 fps: a 60 fps render repeats each frame, which a mini-game never shows. */
const FOOTAGE_FRAME_RATE = 30

export const gameFootage = (video: VideoRecord, seed: number, game: GameKind) =>
  Effect.flatMap(FootageMaker, (maker) =>
    maker.footage({
      game,
      seed,
      seconds: video.durationSeconds ?? 0,
      width: video.width ?? 1080,
      height: video.height ?? 1920,
      frameRate: FOOTAGE_FRAME_RATE
    }))
