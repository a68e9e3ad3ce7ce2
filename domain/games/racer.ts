// Racer: a winding, hilly three-lane highway with traffic to overtake and nitro to grab; a simple AI drives.
// Distances are metres: `distance` along the road, `x` across it from the centre line (right is positive).
import { fixedTicks, type GameEvent, randomFor, recentEvents, shuffled } from "../gameplay.ts"

export const RACER_ROAD_HALF_WIDTH = 5.9
export const RACER_LANES: ReadonlyArray<number> = [-3.8, 0, 3.8]
export const RACER_CAR_LENGTH = 4.4
export const RACER_CAR_WIDTH = 1.9

const TOP_SPEED = 58
const BOOST_SPEED = 76
const BOOST_SECONDS = 3
/** All traffic cruises at one speed, so the gaps it was spawned with stay open. */
const TRAFFIC_SPEED = 26
/** Traffic comes in groups (one car, or two abreast) at least this far apart, so there is always a way through. */
const GROUP_GAP = 42
const SPAWN_AHEAD = 420
const SECTION_LENGTH = 320
const MAX_STEER_SPEED = 9

export type TrafficKind = "car" | "van" | "truck"

export interface TrafficCar {
  readonly id: number
  readonly lane: number
  readonly z: number
  readonly speed: number
  readonly kind: TrafficKind
  /** Picks the paint. */
  readonly colour: number
  readonly hit: boolean
}

export interface Nitro {
  readonly id: number
  readonly lane: number
  readonly z: number
}

export type RacerEvent = GameEvent<"overtake" | "nitro" | "crash">

export interface RacerState {
  readonly seed: number
  readonly time: number
  readonly distance: number
  readonly speed: number
  readonly x: number
  /** Sideways speed: how hard the car is steering. */
  readonly vx: number
  readonly lane: number
  readonly score: number
  readonly overtakes: number
  readonly hits: number
  readonly nitros: number
  readonly boostUntil: number
  /** How far the road has turned so far (radians): the scenery on the horizon slides by it. */
  readonly heading: number
  readonly traffic: ReadonlyArray<TrafficCar>
  readonly pickups: ReadonlyArray<Nitro>
  readonly events: ReadonlyArray<RacerEvent>
  readonly nextCar: number
  readonly nextCarAt: number
  readonly nextNitroAt: number
  readonly nextId: number
  readonly sinceDecision: number
}

/** The section's bend (1/m, right positive) and hill height (m) at its middle; eased to nothing at its ends. */
const section = (seed: number, index: number) => {
  const random = randomFor(seed ^ 0x5bd1e995, index)
  const bend = index === 0 || random() < 0.25 ? 0 : (random() < 0.5 ? -1 : 1) * (0.003 + random() * 0.006)
  const hill = random() < 0.4 ? 0 : (random() < 0.5 ? -1 : 1) * (4 + random() * 10)
  return { bend, hill }
}

const sectionAt = (z: number) => {
  const index = Math.floor(Math.max(0, z) / SECTION_LENGTH)
  return { index, u: Math.max(0, z) / SECTION_LENGTH - index }
}

/** The road's curvature at `z` (1/m; positive bends right). */
export const racerCurvature = (seed: number, z: number): number => {
  const { index, u } = sectionAt(z)
  return section(seed, index).bend * Math.sin(Math.PI * u) ** 2
}

/** The road's height at `z` (m). */
export const racerHeight = (seed: number, z: number): number => {
  const { index, u } = sectionAt(z)
  return (section(seed, index).hill * (1 - Math.cos(2 * Math.PI * u))) / 2
}

const start = (seed: number): RacerState =>
  spawn({
    seed, time: 0, distance: 0, speed: 40, x: 0, vx: 0, lane: 0, score: 0, overtakes: 0, hits: 0, nitros: 0, boostUntil: -1,
    heading: 0, traffic: [], pickups: [], events: [], nextCar: 0, nextCarAt: 60, nextNitroAt: 150, nextId: 0, sinceDecision: 0
  })

/** Keeps the road ahead stocked with traffic and nitro, never three cars abreast. */
const spawn = (state: RacerState): RacerState => {
  let { traffic, pickups, nextCar, nextCarAt, nextNitroAt, nextId } = state
  const horizon = state.distance + SPAWN_AHEAD
  const busy = (lane: number, z: number, gap: number) => traffic.some((c) => c.lane === lane && Math.abs(c.z - z) < gap)
  while (nextCarAt < horizon) {
    const random = randomFor(state.seed, nextCar)
    if (!traffic.some((c) => Math.abs(c.z - nextCarAt) < GROUP_GAP - 5)) {
      const lanes = shuffled(RACER_LANES, random).slice(0, random() < 0.45 ? 2 : 1)
      for (const lane of lanes) {
        const kindRoll = random()
        const kind: TrafficKind = kindRoll < 0.65 ? "car" : kindRoll < 0.85 ? "van" : "truck"
        const z = nextCarAt + random() * 6
        traffic = [...traffic, { id: nextId++, lane, z, speed: TRAFFIC_SPEED, kind, colour: Math.floor(random() * 8), hit: false }]
      }
    }
    nextCar += 1
    nextCarAt += GROUP_GAP + random() * 30
  }
  while (nextNitroAt < horizon) {
    const random = randomFor(state.seed ^ 0x2f6b1c3d, Math.floor(nextNitroAt))
    const lane = RACER_LANES[Math.floor(random() * RACER_LANES.length)]!
    if (!busy(lane, nextNitroAt, 25)) pickups = [...pickups, { id: nextId++, lane, z: nextNitroAt }]
    nextNitroAt += 180 + random() * 160
  }
  return { ...state, traffic, pickups, nextCar, nextCarAt, nextNitroAt, nextId }
}

/** Seconds until the player, at full speed, would reach the next car in the lane (0 alongside), capped at 6. */
const timeGap = (state: RacerState, lane: number): number =>
  state.traffic.reduce((gap, c) => {
    const dz = c.z - state.distance
    if (Math.abs(c.lane - lane) > 1.9 || c.hit || dz < -RACER_CAR_LENGTH - 1.5 || dz > 300) return gap
    if (dz < RACER_CAR_LENGTH + 1.5) return 0
    return Math.min(gap, (dz - RACER_CAR_LENGTH) / (Math.max(TOP_SPEED, state.speed) - c.speed))
  }, 6)

/** No car in any lane the player would cross before it has crossed, and room in the lane it heads for. */
const pathClear = (state: RacerState, lane: number): boolean => {
  const from = RACER_LANES.reduce((a, b) => (Math.abs(b - state.x) < Math.abs(a - state.x) ? b : a))
  const lanes = RACER_LANES.filter((l) => l >= Math.min(from, lane) && l <= Math.max(from, lane))
  const inTheWay = (c: TrafficCar) => {
    const crossing = Math.abs(c.lane - state.x) / MAX_STEER_SPEED + 0.5
    const dz = c.z - state.distance
    return !c.hit && lanes.includes(c.lane) && dz > -RACER_CAR_LENGTH - 3 && dz < RACER_CAR_LENGTH + 3 + (state.speed - c.speed) * crossing
  }
  return !state.traffic.some(inTheWay) && timeGap(state, lane) > 1
}

const chooseLane = (state: RacerState): { lane: number; decided: boolean } => {
  const nitroAhead = (lane: number) =>
    state.pickups.some((p) => p.lane === lane && p.z > state.distance && (p.z - state.distance) / state.speed < 2.5)
  const value = (lane: number) => timeGap(state, lane) * 10 + (nitroAhead(lane) ? 15 : 0) - (3 * Math.abs(lane - state.lane)) / 3.8
  const best = RACER_LANES.filter((l) => l !== state.lane && pathClear(state, l))
    .reduce<number | undefined>((b, l) => (b === undefined || value(l) > value(b) ? l : b), undefined)
  if (best === undefined) return { lane: state.lane, decided: false }
  const danger = timeGap(state, state.lane) < 2.2
  if (danger || (state.sinceDecision > 1.2 && value(best) > value(state.lane) + 12)) return { lane: best, decided: true }
  return { lane: state.lane, decided: false }
}

const event = (state: RacerState, kind: RacerEvent["kind"], x: number, value: number): RacerEvent =>
  ({ kind, time: state.time, x, y: 0, z: state.distance, value })

const tick = (previous: RacerState, h: number): RacerState => {
  const time = previous.time + h
  let state: RacerState = { ...previous, time, sinceDecision: previous.sinceDecision + h }
  const choice = chooseLane(state)
  if (choice.decided) state = { ...state, lane: choice.lane, sinceDecision: 0 }

  // Steering eases in and out, so the car sways into a lane rather than snapping to it.
  const wantVx = Math.max(-MAX_STEER_SPEED, Math.min(MAX_STEER_SPEED, (state.lane - state.x) * 3))
  const vx = state.vx + Math.max(-30 * h, Math.min(30 * h, wantVx - state.vx))
  const x = Math.max(-RACER_ROAD_HALF_WIDTH + 1.2, Math.min(RACER_ROAD_HALF_WIDTH - 1.2, state.x + vx * h))

  // Boxed in: brake before reaching the car ahead.
  const boosting = time < state.boostUntil
  const blocker = state.traffic.find((c) => {
    const dz = c.z - state.distance - RACER_CAR_LENGTH
    const closing = state.speed - c.speed
    return !c.hit && Math.abs(c.lane - x) < RACER_CAR_WIDTH + 0.5 && dz > -1 && dz < (closing * closing) / 40 + 6
  })
  // Climbs slow the car a little and descents speed it up.
  const slope = (racerHeight(state.seed, state.distance + 5) - racerHeight(state.seed, state.distance - 5)) / 10
  // Behind a car, drop back a little, so a car alongside in the next lane pulls ahead and the way opens.
  const wantSpeed = blocker !== undefined ? blocker.speed - 4 : (boosting ? BOOST_SPEED : TOP_SPEED) - 50 * slope
  const accel = wantSpeed < state.speed ? -25 : boosting ? 14 : 6
  const speed = state.speed + (accel < 0 ? Math.max(accel * h, wantSpeed - state.speed) : Math.min(accel * h, wantSpeed - state.speed))
  const distance = state.distance + speed * h
  state = { ...state, x, vx, speed, distance, heading: state.heading + racerCurvature(state.seed, distance) * speed * h }

  const events: Array<RacerEvent> = []
  let { score, overtakes, hits, nitros, boostUntil } = state
  let speedAfter = state.speed
  const traffic = state.traffic.flatMap((c) => {
    const z = c.z + c.speed * h
    const crashed = !c.hit && Math.abs(z - state.distance) < RACER_CAR_LENGTH && Math.abs(c.lane - state.x) < RACER_CAR_WIDTH + 0.1
    if (crashed) {
      hits += 1
      speedAfter = Math.min(speedAfter, c.speed * 0.8)
      events.push(event(state, "crash", c.lane, 0))
    }
    const behind = -RACER_CAR_LENGTH - 2
    if (!c.hit && c.z - previous.distance >= behind && z - state.distance < behind) {
      overtakes += 1
      score += 50
      events.push(event(state, "overtake", c.lane, 50))
    }
    return z < state.distance - 60 ? [] : [{ ...c, z, hit: c.hit || crashed }]
  })
  const pickups = state.pickups.filter((p) => {
    const taken = Math.abs(p.z - state.distance) < 3 && Math.abs(p.lane - state.x) < 1.8
    if (taken) {
      nitros += 1
      score += 100
      boostUntil = time + BOOST_SECONDS
      events.push(event(state, "nitro", p.lane, 100))
    }
    return !taken && p.z > state.distance - 20
  })
  score += speedAfter * h * 0.5
  return spawn({
    ...state, speed: speedAfter, traffic, pickups, score, overtakes, hits, nitros, boostUntil,
    events: recentEvents([...state.events, ...events], time)
  })
}

export const racer = fixedTicks(start, tick)
