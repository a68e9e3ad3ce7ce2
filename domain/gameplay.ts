// Built-in gameplay footage: the games there are, and the shape of a game's seeded simulation.
import { Schema } from "effect"
import { mulberry32 } from "./seeded-random.ts"

export const GameKind = Schema.Literal("runner", "racer", "blocks").annotations({
  description: "The game the footage shows: `runner` (endless runner), `racer` (racer), `blocks` (falling blocks)."
})
export type GameKind = typeof GameKind.Type

export interface Game {
  readonly id: GameKind
  readonly name: string
  readonly description: string
}

export const GAMES: ReadonlyArray<Game> = [
  {
    id: "runner",
    name: "Endless Runner",
    description: "A runner sprints down three train tracks, switching lanes round trains, jumping barriers and collecting coins."
  },
  {
    id: "racer",
    name: "Racer",
    description: "A sports car races down a winding highway, overtaking traffic and grabbing nitro."
  },
  {
    id: "blocks",
    name: "Falling Blocks",
    description: "Falling block pieces are moved, rotated and dropped to clear lines on a puzzle board."
  }
]

/**
 * A deterministic game: the same seed gives the same game, step by step. `step` advances by `dt`
 * seconds in fixed ticks of at most 1/60 s, so footage at 30 and 60 fps shows the same play.
 */
export interface GameSimulation<S> {
  readonly start: (seed: number) => S
  readonly step: (state: S, dt: number) => S
}

const TICKS_PER_SECOND = 60

export const fixedTicks = <S>(start: (seed: number) => S, tick: (state: S, h: number) => S): GameSimulation<S> => ({
  start,
  step: (state, dt) => {
    const ticks = Math.max(1, Math.ceil(dt * TICKS_PER_SECOND - 1e-9))
    let next = state
    for (let i = 0; i < ticks; i++) next = tick(next, dt / ticks)
    return next
  }
})

/** The random stream for one numbered thing of a game (a row of obstacles, a bag of pieces): no state to carry. */
export const randomFor = (seed: number, key: number): (() => number) =>
  mulberry32((seed ^ Math.imul(key + 1, 0x9e3779b1)) >>> 0)

/** The items in a random order (Fisher-Yates), the same order for the same random stream. */
export const shuffled = <T>(items: ReadonlyArray<T>, random: () => number): Array<T> => {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** A fired moment (a coin taken, a line cleared) kept a little while so the picture can show its particles. */
export interface GameEvent<K extends string> {
  readonly kind: K
  readonly time: number
  /** Where it happened, in the game's own units. */
  readonly x: number
  readonly y: number
  readonly z: number
  /** A number that goes with it: lines cleared, points scored. */
  readonly value: number
}

const EVENT_SECONDS = 1.5

/** Events younger than the particles that show them. */
export const recentEvents = <E extends { readonly time: number }>(events: ReadonlyArray<E>, now: number): ReadonlyArray<E> =>
  events.some((e) => now - e.time > EVENT_SECONDS) ? events.filter((e) => now - e.time <= EVENT_SECONDS) : events
