// Endless runner: three train tracks, trains to steer round, barriers to jump, coins to collect; a simple AI plays.
// Distances are metres along the track; `x` is in lanes (-1 left, 0 middle, 1 right).
import { fixedTicks, type GameEvent, randomFor, recentEvents, shuffled } from "../gameplay.ts"

export type Lane = -1 | 0 | 1
const LANES: ReadonlyArray<Lane> = [-1, 0, 1]

export const RUNNER_BARRIER_HEIGHT = 1
export const RUNNER_JUMP_SPEED = 9.2
export const RUNNER_GRAVITY = 26

const MIN_SPEED = 14
const MAX_SPEED = 26
const LANE_SPEED = 8
const SPAWN_AHEAD = 160
/** Trains closer than this, front or back, make a lane count as taken when the next ones are placed. */
const TRAIN_MARGIN = 12

export interface RunnerObstacle {
  readonly id: number
  readonly kind: "train" | "barrier"
  readonly lane: Lane
  /** Where it starts along the track, and how long it is. */
  readonly at: number
  readonly length: number
  readonly hit: boolean
}

export interface RunnerCoin {
  readonly id: number
  readonly lane: Lane
  readonly at: number
  /** Height above the track: coins arc over barriers. */
  readonly height: number
}

export type RunnerEvent = GameEvent<"coin" | "jump" | "land" | "hit">

export interface RunnerState {
  readonly seed: number
  readonly time: number
  readonly distance: number
  readonly speed: number
  readonly x: number
  readonly lane: Lane
  readonly y: number
  readonly vy: number
  readonly score: number
  readonly coins: number
  readonly hits: number
  readonly dodged: number
  readonly obstacles: ReadonlyArray<RunnerObstacle>
  readonly pickups: ReadonlyArray<RunnerCoin>
  readonly events: ReadonlyArray<RunnerEvent>
  readonly nextRow: number
  readonly nextRowAt: number
  /** Where the last train in each lane ends, so new rows always leave a way through. */
  readonly trainEnds: readonly [number, number, number]
  readonly nextId: number
  readonly sinceDecision: number
}

const laneIndex = (lane: Lane): 0 | 1 | 2 => (lane + 1) as 0 | 1 | 2

const start = (seed: number): RunnerState =>
  spawnRows({
    seed, time: 0, distance: 0, speed: MIN_SPEED, x: 0, lane: 0, y: 0, vy: 0, score: 0, coins: 0, hits: 0, dodged: 0,
    obstacles: [], pickups: [], events: [], nextRow: 0, nextRowAt: 40, trainEnds: [-1e9, -1e9, -1e9], nextId: 0, sinceDecision: 0
  })

interface Row {
  obstacles: Array<RunnerObstacle>
  pickups: Array<RunnerCoin>
  trainEnds: [number, number, number]
  nextId: number
}

const coinLine = (row: Row, lane: Lane, from: number, to: number, height = 0.6) => {
  for (let at = from; at <= to; at += 3) row.pickups.push({ id: row.nextId++, lane, at, height })
}

/** Lanes free of trains at `at` once the ends are `ends`. */
const freeLanes = (ends: ReadonlyArray<number>, at: number): Array<Lane> => LANES.filter((l) => ends[laneIndex(l)]! < at - TRAIN_MARGIN)

/** Trains on `lanes` from `at`, if a way through stays open: a free lane beside every new train. */
const placeTrains = (row: Row, lanes: ReadonlyArray<Lane>, at: number, length: number): boolean => {
  const ends: [number, number, number] = [...row.trainEnds]
  for (const lane of lanes) ends[laneIndex(lane)] = at + length
  const free = freeLanes(ends, at)
  if (free.length === 0 || !lanes.every((l) => free.some((f) => Math.abs(f - l) === 1))) return false
  row.trainEnds = ends
  for (const lane of lanes) {
    row.obstacles.push({ id: row.nextId++, kind: "train", lane, at, length, hit: false })
    row.pickups = row.pickups.filter((c) => c.lane !== lane || c.at < at - 2 || c.at > at + length + 2)
  }
  return true
}

/** Lays out rows of trains, barriers and coins until the track is filled to SPAWN_AHEAD. */
const spawnRows = (state: RunnerState): RunnerState => {
  if (state.nextRowAt > state.distance + SPAWN_AHEAD) return state
  const row: Row = { obstacles: [...state.obstacles], pickups: [...state.pickups], trainEnds: [...state.trainEnds], nextId: state.nextId }
  let { nextRow, nextRowAt } = state
  while (nextRowAt <= state.distance + SPAWN_AHEAD) {
    const random = randomFor(state.seed, nextRow)
    const at = nextRowAt
    const roll = random()
    const open = freeLanes(row.trainEnds, at)
    if (roll < 0.45 && open.length > 0) {
      const length = 14 + Math.floor(random() * 4) * 10
      const candidates = shuffled(open, random)
      const placed = (random() < 0.4 && candidates.length >= 2 && placeTrains(row, candidates.slice(0, 2), at, length)) ||
        candidates.some((lane) => placeTrains(row, [lane], at, length))
      const free = freeLanes(row.trainEnds, at)
      const lane = free[Math.floor(random() * free.length)]
      if (placed && lane !== undefined && random() < 0.75) coinLine(row, lane, at, at + length)
    } else if (roll < 0.8) {
      const lanes = shuffled(LANES.filter((l) => row.trainEnds[laneIndex(l)]! < at - 4), random).slice(0, 1 + Math.floor(random() * 3))
      for (const lane of lanes) row.obstacles.push({ id: row.nextId++, kind: "barrier", lane, at, length: 0.5, hit: false })
      const arcLane = lanes[0]
      if (arcLane !== undefined && random() < 0.5) {
        // Coins over a barrier follow the jump that clears it.
        for (let i = -2; i <= 2; i++) row.pickups.push({ id: row.nextId++, lane: arcLane, at: at + i * 2.6, height: 2.1 - 0.14 * i * i })
      }
    } else {
      const free = freeLanes(row.trainEnds, at)
      const lane = free[Math.floor(random() * free.length)]
      if (lane !== undefined) coinLine(row, lane, at, at + 15 + Math.floor(random() * 3) * 6)
    }
    nextRow += 1
    nextRowAt += 18 + random() * 14
  }
  return { ...state, obstacles: row.obstacles, pickups: row.pickups, trainEnds: row.trainEnds, nextId: row.nextId, nextRow, nextRowAt }
}

const trainIn = (state: RunnerState, lane: Lane, from: number, to: number): boolean =>
  state.obstacles.some((o) => o.kind === "train" && o.lane === lane && o.at - state.distance < to && o.at + o.length - state.distance > from)

/** How far the lane runs clear of trains, capped at `cap`. */
const clearAhead = (state: RunnerState, lane: Lane, cap: number): number =>
  state.obstacles.reduce((nearest, o) => {
    if (o.kind !== "train" || o.lane !== lane || o.at + o.length - state.distance < -1.5) return nearest
    return Math.min(nearest, Math.max(0, o.at - state.distance))
  }, cap)

/** A barrier the runner could not jump any more if it stepped into its lane now. */
const barrierTooClose = (state: RunnerState, lane: Lane): boolean =>
  state.y < RUNNER_BARRIER_HEIGHT &&
  state.obstacles.some((o) => o.kind === "barrier" && o.lane === lane && o.at - state.distance > -0.5 && o.at - state.distance < state.speed * 0.2)

/** Every lane on the way there is clear beside the runner now, and the lane itself is clear on arrival. */
const pathClear = (state: RunnerState, lane: Lane): boolean => {
  const here = Math.round(state.x) as Lane
  const step = Math.sign(lane - here)
  for (let l = here; l !== lane; l = (l + step) as Lane) if (trainIn(state, l, -1.5, 3) || barrierTooClose(state, l)) return false
  return !trainIn(state, lane, -1.5, state.speed * 0.3 + 3) && !barrierTooClose(state, lane)
}

/** The lane the AI wants: clear of trains, with coins, not far away. */
const chooseLane = (state: RunnerState): { lane: Lane; decided: boolean } => {
  const look = state.speed * 1.1 + 6
  const cap = look * 2
  const value = (lane: Lane) => {
    const coins = state.pickups.filter((c) => c.lane === lane && c.at - state.distance > 2 && c.at - state.distance < state.speed * 1.5).length
    const barriers = state.obstacles.filter((o) => o.kind === "barrier" && o.lane === lane && o.at - state.distance > 0 && o.at - state.distance < state.speed * 2).length
    return clearAhead(state, lane, cap) + 4 * coins - 2 * Math.abs(lane - state.lane) - barriers
  }
  const reachable = LANES.filter((l) => l !== state.lane && pathClear(state, l))
  const best = reachable.reduce<Lane | undefined>((b, l) => (b === undefined || value(l) > value(b) ? l : b), undefined)
  if (best === undefined) return { lane: state.lane, decided: false }
  const danger = clearAhead(state, state.lane, cap) < look
  if (danger || (state.sinceDecision > 0.5 && value(best) > value(state.lane) + 6)) return { lane: best, decided: true }
  return { lane: state.lane, decided: false }
}

/** Jump a barrier (or for the coins over one) so the runner is highest as it passes. */
const wantsJump = (state: RunnerState): boolean => {
  if (state.y > 0 || state.vy !== 0) return false
  const inWay = (lane: Lane) => lane === state.lane || Math.abs(lane - state.x) < 0.8
  const soon = (at: number) => at - state.distance > 0 && at - state.distance < state.speed * 0.3
  return state.obstacles.some((o) => o.kind === "barrier" && inWay(o.lane) && soon(o.at)) ||
    state.pickups.some((c) => c.height > 2 && inWay(c.lane) && soon(c.at))
}

const event = (state: RunnerState, kind: RunnerEvent["kind"], y: number, value = 0): RunnerEvent =>
  ({ kind, time: state.time, x: state.x, y, z: state.distance, value })

const tick = (previous: RunnerState, h: number): RunnerState => {
  const time = previous.time + h
  const targetSpeed = Math.min(MAX_SPEED, MIN_SPEED + time * 0.2)
  const speed = previous.speed + (targetSpeed - previous.speed) * Math.min(1, h * 1.5)
  let state: RunnerState = { ...previous, time, speed, distance: previous.distance + speed * h, sinceDecision: previous.sinceDecision + h }
  const events: Array<RunnerEvent> = []

  const choice = chooseLane(state)
  if (choice.decided) state = { ...state, lane: choice.lane, sinceDecision: 0 }
  const dx = state.lane - state.x
  state = { ...state, x: state.x + Math.sign(dx) * Math.min(Math.abs(dx), LANE_SPEED * h) }

  if (wantsJump(state)) {
    state = { ...state, vy: RUNNER_JUMP_SPEED }
    events.push(event(state, "jump", 0))
  }
  if (state.y > 0 || state.vy > 0) {
    const vy = state.vy - RUNNER_GRAVITY * h
    const y = state.y + vy * h
    if (y <= 0) {
      state = { ...state, y: 0, vy: 0 }
      events.push(event(state, "land", 0))
    } else state = { ...state, y, vy }
  }

  let { hits, coins, dodged, score } = state
  let speedAfter = state.speed
  const obstacles = state.obstacles.flatMap((o) => {
    const near = o.at - state.distance < 0.4 && o.at + o.length - state.distance > -0.4
    const beside = Math.abs(state.x - o.lane) < 0.55
    const under = o.kind === "train" || state.y < RUNNER_BARRIER_HEIGHT
    if (!o.hit && near && beside && under) {
      hits += 1
      speedAfter *= 0.6
      events.push(event(state, "hit", state.y))
      return [{ ...o, hit: true }]
    }
    if (o.at + o.length < state.distance - 10) {
      if (!o.hit) dodged += 1
      return []
    }
    return [o]
  })
  const pickups = state.pickups.filter((c) => {
    const taken = Math.abs(c.at - state.distance) < 0.8 && Math.abs(state.x - c.lane) < 0.5 && Math.abs(state.y + 0.6 - c.height) < 1.2
    if (taken) {
      coins += 1
      score += 10
      events.push({ ...event(state, "coin", c.height, 10), x: c.lane })
    }
    return !taken && c.at > state.distance - 10
  })
  score += speedAfter * h
  return spawnRows({
    ...state, speed: speedAfter, obstacles, pickups, hits, coins, dodged, score,
    events: recentEvents([...state.events, ...events], time)
  })
}

export const runner = fixedTicks(start, tick)
