// A game's footage as raw RGBA frames: its seeded simulation, warmed up into the action, drawn by its painter.
import { createCanvas } from "@napi-rs/canvas"
import { blocks } from "../../domain/games/blocks.ts"
import { racer } from "../../domain/games/racer.ts"
import { runner } from "../../domain/games/runner.ts"
import type { GameKind, GameSimulation } from "../../domain/gameplay.ts"
import { blocksPainter } from "./draw-blocks.ts"
import { racerPainter } from "./draw-racer.ts"
import { runnerPainter } from "./draw-runner.ts"
import type { PainterFactory } from "./game-kit.ts"

/** Footage starts mid-game: up to speed, with a score on the board. */
const WARM_UP_SECONDS = 6

export interface GameFrames {
  /** Draws the next frame and returns its pixels (a copy, safe to hand to a stream). */
  readonly next: () => Buffer
}

const frames = <S>(simulation: GameSimulation<S>, painter: PainterFactory<S>) =>
  (seed: number, width: number, height: number, frameRate: number): GameFrames => {
    let state = simulation.step(simulation.start(seed), WARM_UP_SECONDS)
    const canvas = createCanvas(width, height)
    const ctx = canvas.getContext("2d")
    const paint = painter(width, height, seed)
    return {
      next: () => {
        paint(ctx, state)
        state = simulation.step(state, 1 / frameRate)
        return canvas.data()
      }
    }
  }

const GAME_FRAMES: Record<GameKind, (seed: number, width: number, height: number, frameRate: number) => GameFrames> = {
  runner: frames(runner, runnerPainter),
  racer: frames(racer, racerPainter),
  blocks: frames(blocks, blocksPainter)
}

export const gameFrames = (game: GameKind, seed: number, width: number, height: number, frameRate: number): GameFrames =>
  GAME_FRAMES[game](seed >>> 0, width, height, frameRate)
