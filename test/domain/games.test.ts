// The gameplay simulations: seeded and repeatable, the player in bounds, scoring, dodging and picking things up.
import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { BOARD_COLUMNS, blocks, type BlocksState, cellsOf, fits, HIDDEN_ROWS } from "../../domain/games/blocks.ts"
import { RACER_LANES, RACER_ROAD_HALF_WIDTH, racer, type RacerState } from "../../domain/games/racer.ts"
import { runner, type RunnerState } from "../../domain/games/runner.ts"
import { GameKind, GAMES, type GameSimulation } from "../../domain/gameplay.ts"

const FPS = 30

/** Every state of `seconds` of play at 30 fps, the start included. */
const play = <S>(game: GameSimulation<S>, seed: number, seconds: number): Array<S> => {
  const states = [game.start(seed)]
  for (let i = 0; i < seconds * FPS; i++) states.push(game.step(states[states.length - 1]!, 1 / FPS))
  return states
}

const last = <T>(items: ReadonlyArray<T>): T => items[items.length - 1]!

/** How many times a value changes from one state to the next. */
const changes = <S>(states: ReadonlyArray<S>, value: (s: S) => unknown): number =>
  states.slice(1).filter((s, i) => value(s) !== value(states[i]!)).length

describe("GAMES", () => {
  it("lists each game kind once, with a name and a description", () => {
    expect(GAMES.map((g) => g.id).sort()).toEqual(["blocks", "racer", "runner"])
    for (const game of GAMES) {
      expect(Schema.decodeUnknownSync(GameKind)(game.id)).toBe(game.id)
      expect(game.name.length).toBeGreaterThan(2)
      expect(game.description.length).toBeGreaterThan(20)
    }
    expect(() => Schema.decodeUnknownSync(GameKind)("tetris")).toThrow()
  })
})

describe.each([
  ["runner", runner as GameSimulation<unknown>],
  ["racer", racer as GameSimulation<unknown>],
  ["blocks", blocks as GameSimulation<unknown>]
])("the %s simulation", (_, game) => {
  it("plays the same game for the same seed and a different one for another seed", () => {
    const a = last(play(game, 11, 20))
    expect(last(play(game, 11, 20))).toEqual(a)
    expect(last(play(game, 12, 20))).not.toEqual(a)
  })

  it("plays the same game whether stepped at 30 or 60 frames a second", () => {
    let at30 = game.start(5)
    let at60 = game.start(5)
    for (let i = 0; i < 10 * 30; i++) at30 = game.step(at30, 1 / 30)
    for (let i = 0; i < 10 * 60; i++) at60 = game.step(at60, 1 / 60)
    expect(at60).toEqual(at30)
  })

  it("scores steadily: never down, and up in every ten seconds", () => {
    const scores = play(game, 3, 60).map((s) => (s as { score: number }).score)
    scores.slice(1).forEach((score, i) => expect(score).toBeGreaterThanOrEqual(scores[i]!))
    for (let t = 10; t <= 60; t += 10) expect(scores[t * FPS]!).toBeGreaterThan(scores[(t - 10) * FPS]!)
  })
})

describe("the runner", () => {
  const runs = [1, 2, 3].map((seed) => play(runner, seed, 90))

  it("stays on the three tracks and on or above the ground", () => {
    for (const state of runs.flat()) {
      expect(Math.abs(state.x)).toBeLessThanOrEqual(1)
      expect([-1, 0, 1]).toContain(state.lane)
      expect(state.y).toBeGreaterThanOrEqual(0)
      expect(state.y).toBeLessThan(2)
    }
  })

  it("dodges nearly every train and barrier by switching lanes and jumping, and collects coins", () => {
    for (const states of runs) {
      const end: RunnerState = last(states)
      expect(end.dodged).toBeGreaterThan(50)
      expect(end.hits / (end.hits + end.dodged)).toBeLessThan(0.05)
      expect(end.coins).toBeGreaterThan(50)
      expect(changes(states, (s) => s.lane)).toBeGreaterThan(15)
      expect(states.filter((s, i) => i > 0 && s.vy > 0 && states[i - 1]!.vy <= 0).length).toBeGreaterThan(10)
    }
  })
})

describe("the racer", () => {
  const runs = [1, 2, 3].map((seed) => play(racer, seed, 90))

  it("stays on the road", () => {
    for (const state of runs.flat()) expect(Math.abs(state.x)).toBeLessThan(RACER_ROAD_HALF_WIDTH)
  })

  it("overtakes traffic by changing lanes, seldom touching a car, and picks up nitro", () => {
    for (const states of runs) {
      const end: RacerState = last(states)
      expect(end.overtakes).toBeGreaterThan(30)
      expect(end.hits / end.overtakes).toBeLessThan(0.05)
      expect(changes(states, (s) => s.lane)).toBeGreaterThan(8)
      expect(states.some((s) => RACER_LANES.every((lane) => Math.abs(s.x - lane) > 0.5))).toBe(true)
    }
    expect(runs.reduce((n, states) => n + last(states).nitros, 0)).toBeGreaterThan(3)
  })
})

describe("the falling blocks", () => {
  const runs = [1, 2, 3].map((seed) => play(blocks, seed, 90))
  const stackHeight = (s: BlocksState) => {
    const top = s.board.findIndex((cell) => cell !== 0)
    return top < 0 ? 0 : s.board.length / BOARD_COLUMNS - Math.floor(top / BOARD_COLUMNS)
  }

  it("keeps the falling piece inside the board and clear of the stack", () => {
    for (const state of runs.flat()) {
      if (state.piece === null) continue
      expect(fits(state.board, state.piece)).toBe(true)
      for (const [x] of cellsOf(state.piece)) expect(x >= 0 && x < BOARD_COLUMNS).toBe(true)
    }
  })

  it("rotates and moves pieces into place, clears lines and never tops out", () => {
    for (const states of runs) {
      const end = last(states)
      expect(end.topouts).toBe(0)
      expect(end.lines).toBeGreaterThan(15)
      expect(end.pieces).toBeGreaterThan(50)
      expect(Math.max(...states.map(stackHeight))).toBeLessThan(HIDDEN_ROWS + 12)
      expect(changes(states, (s) => s.piece?.rotation)).toBeGreaterThan(20)
    }
  })
})
