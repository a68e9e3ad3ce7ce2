// The endless runner seen from behind and above: three railway tracks in perspective between graffiti walls and
// buildings, trains and barriers coming at the runner, spinning coins, the runner's run cycle, dust and sparkles.
import type { SKRSContext2D } from "@napi-rs/canvas"
import { RUNNER_BARRIER_HEIGHT, type RunnerCoin, type RunnerObstacle, type RunnerState } from "../../domain/games/runner.ts"
import { randomFor } from "../../domain/gameplay.ts"
import { burst, gameText, keyOf, padded, type PainterFactory, panel, sprite } from "./game-kit.ts"

const LANE_WIDTH = 2.6
const CAMERA_HEIGHT = 6
const CAMERA_BACK = 8
const NEAR = -CAMERA_BACK + 0.8
/**
 * Things on the track end this far behind the runner, before they fill the screen: a train being passed shows
 * its end here, as if it rolled along beside the runner.
 */
const BEHIND = -1.2
const FAR = 150
const FOG_FROM = 100
const TRAIN_HEIGHT = 3.6
const TRAIN_HALF_WIDTH = 1.12
const TRACK_HALF_WIDTH = 1.5 * LANE_WIDTH + 0.5
const WALL_X = TRACK_HALF_WIDTH + 1.4
const WALL_HEIGHT = 2.6
const PANEL_LENGTH = 7
const BLOCK_LENGTH = 16
const SLEEPER_GAP = 1.1
/** The runner is drawn larger than life, as game heroes are. */
const RUNNER_SIZE = 1.25

const TRAIN_COLOURS: ReadonlyArray<readonly [string, string, string]> = [
  ["#e8413c", "#b52a26", "#ff8a80"],
  ["#2f80ed", "#1f5bb0", "#8fc2ff"],
  ["#f2c200", "#c79a00", "#fff08a"],
  ["#27ae60", "#1b7d44", "#8ef0b5"],
  ["#9b51e0", "#6f34a8", "#d6b0ff"],
  ["#ff7f27", "#c95b12", "#ffc48f"]
]
const WALL_COLOURS = ["#ff5d8f", "#39c2d7", "#ffd23f", "#7ae582", "#b388ff", "#ff924c"]
const BUILDING_COLOURS = ["#f4a261", "#e76f51", "#8ecae6", "#ffb4a2", "#cdb4db", "#a3c4bc", "#f6bd60"]

export const runnerPainter: PainterFactory<RunnerState> = (width, height, seed) => {
  const u = height / 960
  const focal = height * 0.62
  const horizon = height * 0.27
  const centre = width / 2

  const background = sprite(width, height, (ctx) => {
    const sky = ctx.createLinearGradient(0, 0, 0, horizon)
    sky.addColorStop(0, "#2d9cff")
    sky.addColorStop(0.7, "#8fd3ff")
    sky.addColorStop(1, "#d9f1ff")
    ctx.fillStyle = sky
    ctx.fillRect(0, 0, width, horizon + 1)
    const random = randomFor(seed, 1)
    ctx.fillStyle = "rgba(255,255,255,0.9)"
    for (let i = 0; i < 5; i++) {
      const cx = random() * width
      const cy = horizon * (0.1 + random() * 0.5)
      for (let j = 0; j < 4; j++) {
        ctx.beginPath()
        ctx.ellipse(cx + (j - 1.5) * 28 * u, cy + (j % 2) * 6 * u, 34 * u, 20 * u, 0, 0, Math.PI * 2)
        ctx.fill()
      }
    }
    // A far skyline, hazy with distance.
    ctx.fillStyle = "#9fb9d6"
    for (let x = 0; x < width; ) {
      const w = (18 + random() * 40) * u
      const h = (20 + random() * 70) * u
      ctx.fillRect(x, horizon - h, w, h + 1)
      x += w
    }
    const ground = ctx.createLinearGradient(0, horizon, 0, height)
    ground.addColorStop(0, "#9fc77a")
    ground.addColorStop(1, "#4f9a2f")
    ctx.fillStyle = ground
    ctx.fillRect(0, horizon, width, height - horizon)
  })

  const coinImage = sprite(64, 64, (ctx) => {
    ctx.fillStyle = "#b8860b"
    ctx.beginPath()
    ctx.arc(32, 32, 31, 0, Math.PI * 2)
    ctx.fill()
    ctx.fillStyle = "#ffd21f"
    ctx.beginPath()
    ctx.arc(32, 32, 25, 0, Math.PI * 2)
    ctx.fill()
    ctx.fillStyle = "#ffec7a"
    ctx.fillRect(26, 16, 12, 32)
  })
  /** A coin of radius r, narrowed by `squeeze` as it spins. */
  const coin = (ctx: SKRSContext2D, x: number, y: number, r: number, squeeze = 1) => {
    const w = Math.max(0.12, Math.abs(squeeze)) * r
    ctx.drawImage(coinImage, x - w, y - r, 2 * w, 2 * r)
  }

  return (ctx: SKRSContext2D, state: RunnerState) => {
    const camX = state.x * LANE_WIDTH * 0.55
    const scale = (z: number) => focal / (z + CAMERA_BACK)
    const sx = (x: number, z: number) => centre + (x - camX) * scale(z)
    const sy = (y: number, z: number) => horizon + (CAMERA_HEIGHT - y) * scale(z)
    const fog = (z: number) => Math.max(0, Math.min(1, 1 - (z - FOG_FROM) / (FAR - FOG_FROM)))
    /** A quad on a plane of constant x (a side face) from z0 to z1 and y0 to y1. */
    const sideQuad = (x: number, y0: number, y1: number, z0: number, z1: number) => {
      ctx.moveTo(sx(x, z0), sy(y0, z0))
      ctx.lineTo(sx(x, z1), sy(y0, z1))
      ctx.lineTo(sx(x, z1), sy(y1, z1))
      ctx.lineTo(sx(x, z0), sy(y1, z0))
      ctx.closePath()
    }
    /** A quad on a plane of constant y (the ground, a roof) from x0 to x1 and z0 to z1. */
    const flatQuad = (y: number, x0: number, x1: number, z0: number, z1: number) => {
      ctx.moveTo(sx(x0, z0), sy(y, z0))
      ctx.lineTo(sx(x1, z0), sy(y, z0))
      ctx.lineTo(sx(x1, z1), sy(y, z1))
      ctx.lineTo(sx(x0, z1), sy(y, z1))
      ctx.closePath()
    }
    const fillPath = (colour: string, draw: () => void) => {
      ctx.fillStyle = colour
      ctx.beginPath()
      draw()
      ctx.fill()
    }

    ctx.drawImage(background, 0, 0)

    // Buildings behind the walls, far ones first; each block of track has its own.
    const firstBlock = Math.floor((state.distance + NEAR) / BLOCK_LENGTH)
    const lastBlock = Math.floor((state.distance + FAR) / BLOCK_LENGTH)
    for (let block = lastBlock; block >= firstBlock; block--) {
      for (const side of [-1, 1]) {
        const random = randomFor(seed ^ 0x3c6ef372, block * 2 + (side > 0 ? 1 : 0))
        if (random() < 0.15) continue
        const z0 = Math.max(NEAR, block * BLOCK_LENGTH - state.distance + 1)
        const z1 = Math.min(FAR, (block + 1) * BLOCK_LENGTH - state.distance - 1)
        if (z1 <= z0) continue
        const inner = side * (WALL_X + 1.5 + random() * 3)
        const top = 7 + random() * 16
        const colour = BUILDING_COLOURS[Math.floor(random() * BUILDING_COLOURS.length)]!
        ctx.globalAlpha = fog(z0)
        fillPath(colour, () => sideQuad(inner, 0, top, z0, z1))
        const x0 = sx(inner, z0)
        const x1 = sx(inner + side * 8, z0)
        ctx.fillStyle = colour
        ctx.fillRect(Math.min(x0, x1), sy(top, z0), Math.abs(x1 - x0), sy(0, z0) - sy(top, z0))
        ctx.fillStyle = "rgba(0,0,0,0.16)"
        ctx.fillRect(Math.min(x0, x1), sy(top, z0), Math.abs(x1 - x0), sy(0, z0) - sy(top, z0))
        // Bands of windows, floor by floor; too small to see far away.
        if (z0 < 70) {
          fillPath("rgba(40,60,110,0.5)", () => {
            for (let y = 2.2; y < top - 1; y += 2.8) sideQuad(inner, y, y + 1.3, z0 + 0.8, z1 - 0.8)
          })
        }
        ctx.globalAlpha = 1
      }
    }

    // Graffiti walls along both sides, one coloured panel every few metres: gathered by colour, one fill each.
    const firstPanel = Math.floor((state.distance + NEAR) / PANEL_LENGTH)
    const lastPanel = Math.floor((state.distance + FAR) / PANEL_LENGTH)
    const panels = WALL_COLOURS.map(() => [] as Array<() => void>)
    const tags = WALL_COLOURS.map(() => [] as Array<() => void>)
    for (let p = firstPanel; p <= lastPanel; p++) {
      const z0 = Math.max(NEAR, p * PANEL_LENGTH - state.distance)
      const z1 = Math.min(FAR, (p + 1) * PANEL_LENGTH - state.distance)
      for (const side of [-1, 1]) {
        const random = randomFor(seed ^ 0x1b873593, p * 2 + (side > 0 ? 1 : 0))
        panels[Math.floor(random() * WALL_COLOURS.length)]!.push(() => sideQuad(side * WALL_X, 0, WALL_HEIGHT, z0, z1))
        if (random() < 0.6) {
          const a = z0 + (z1 - z0) * random() * 0.4
          const y0 = 0.5 + random() * 0.6
          const y1 = 1.5 + random() * 0.8
          const b = Math.min(FAR, a + 1.5 + random() * 3)
          tags[Math.floor(random() * WALL_COLOURS.length)]!.push(() => sideQuad(side * WALL_X, y0, y1, a, b))
        }
      }
    }
    for (const group of [panels, tags]) {
      group.forEach((quads, i) => {
        if (quads.length > 0) fillPath(WALL_COLOURS[i]!, () => quads.forEach((q) => q()))
      })
    }
    fillPath("rgba(0,0,0,0.25)", () => {
      for (const side of [-1, 1]) sideQuad(side * WALL_X, WALL_HEIGHT - 0.25, WALL_HEIGHT, NEAR, FAR)
    })

    // The track bed, sleepers passing under the runner, and the rails.
    fillPath("#8f7662", () => flatQuad(0, -TRACK_HALF_WIDTH, TRACK_HALF_WIDTH, NEAR, FAR))
    // Sleepers run across the whole bed (one quad a row), then the gravel between the tracks covers their ends.
    fillPath("#6b4a33", () => {
      const first = Math.ceil((state.distance + NEAR) / SLEEPER_GAP)
      for (let k = first; k * SLEEPER_GAP - state.distance < 50; k++) {
        const z = k * SLEEPER_GAP - state.distance
        flatQuad(0, -LANE_WIDTH - 1.1, LANE_WIDTH + 1.1, z, z + 0.38)
      }
    })
    fillPath("#a08672", () => {
      for (const gap of [-0.5, 0.5]) flatQuad(0, gap * LANE_WIDTH - 0.2, gap * LANE_WIDTH + 0.2, NEAR, FAR)
    })
    fillPath("#e4e8ee", () => {
      for (const lane of [-1, 0, 1]) {
        for (const rail of [-0.72, 0.72]) flatQuad(0.12, lane * LANE_WIDTH + rail - 0.06, lane * LANE_WIDTH + rail + 0.06, NEAR, FAR)
      }
    })

    // Everything on the track, far to near, the runner among it.
    type Thing = { readonly z: number; readonly draw: () => void }
    const things: Array<Thing> = []
    const drawTrain = (o: RunnerObstacle) => {
      const x = o.lane * LANE_WIDTH
      const z0 = Math.max(BEHIND, o.at - state.distance)
      const z1 = Math.min(FAR, o.at + o.length - state.distance)
      if (z1 <= z0) return
      const [body, dark, light] = TRAIN_COLOURS[o.id % TRAIN_COLOURS.length]!
      ctx.globalAlpha = fog(z0)
      // The side that faces the camera, its windows, then the roof.
      const sideX = camX < x ? x - TRAIN_HALF_WIDTH : x + TRAIN_HALF_WIDTH
      fillPath(dark, () => sideQuad(sideX, 0.2, TRAIN_HEIGHT, z0, z1))
      fillPath("#30343f", () => sideQuad(sideX, 0, 0.55, z0, z1))
      fillPath(light, () => sideQuad(sideX, 0.9, 1.15, z0, z1))
      fillPath("#1d2b4a", () => {
        for (let z = o.at - state.distance + 1.5; z < z1 - 1.5; z += 3.2) if (z > z0) sideQuad(sideX, 1.6, 2.9, z, Math.min(z1, z + 1.8))
      })
      fillPath(light, () => flatQuad(TRAIN_HEIGHT, x - TRAIN_HALF_WIDTH, x + TRAIN_HALF_WIDTH, z0, z1))
      // The end facing the camera.
      const s = scale(z0)
      const left = sx(x - TRAIN_HALF_WIDTH, z0)
      const top = sy(TRAIN_HEIGHT, z0)
      const w = 2 * TRAIN_HALF_WIDTH * s
      const h = (TRAIN_HEIGHT - 0.2) * s
      ctx.fillStyle = body
      ctx.beginPath()
      ctx.roundRect(left, top, w, h, 0.35 * s)
      ctx.fill()
      ctx.fillStyle = "#162447"
      ctx.beginPath()
      ctx.roundRect(left + 0.22 * s, top + 0.35 * s, w - 0.44 * s, 1.2 * s, 0.2 * s)
      ctx.fill()
      ctx.fillStyle = "rgba(255,255,255,0.35)"
      ctx.beginPath()
      ctx.moveTo(left + 0.5 * s, top + 1.45 * s)
      ctx.lineTo(left + 0.95 * s, top + 0.4 * s)
      ctx.lineTo(left + 1.25 * s, top + 0.4 * s)
      ctx.lineTo(left + 0.8 * s, top + 1.45 * s)
      ctx.fill()
      ctx.fillStyle = light
      ctx.fillRect(left, top + 1.9 * s, w, 0.3 * s)
      ctx.fillStyle = "#fff6a8"
      for (const hx of [0.45, w / s - 0.45]) {
        ctx.beginPath()
        ctx.arc(left + hx * s, top + 2.75 * s, 0.22 * s, 0, Math.PI * 2)
        ctx.fill()
      }
      ctx.fillStyle = "#30343f"
      ctx.fillRect(left + 0.2 * s, top + h - 0.35 * s, w - 0.4 * s, 0.35 * s)
      ctx.globalAlpha = 1
    }
    const drawBarrier = (o: RunnerObstacle) => {
      const z = o.at - state.distance
      if (z < BEHIND) return
      const s = scale(z)
      const x = o.lane * LANE_WIDTH
      ctx.globalAlpha = fog(z)
      ctx.fillStyle = "rgba(0,0,0,0.25)"
      ctx.fillRect(sx(x - 1.1, z), sy(0, z) - 0.1 * s, 2.2 * s, 0.15 * s)
      ctx.fillStyle = "#6d6d7a"
      for (const px of [-0.95, 0.85]) ctx.fillRect(sx(x + px, z), sy(RUNNER_BARRIER_HEIGHT, z), 0.12 * s, RUNNER_BARRIER_HEIGHT * s)
      const left = sx(x - 1.15, z)
      const top = sy(RUNNER_BARRIER_HEIGHT, z)
      const w = 2.3 * s
      const h = 0.5 * s
      ctx.fillStyle = "#ffffff"
      ctx.fillRect(left, top, w, h)
      ctx.save()
      ctx.beginPath()
      ctx.rect(left, top, w, h)
      ctx.clip()
      ctx.fillStyle = "#e63946"
      ctx.beginPath()
      for (let i = -1; i < 8; i += 2) {
        ctx.moveTo(left + i * 0.33 * s, top + h)
        ctx.lineTo(left + (i * 0.33 + 0.33) * s, top + h)
        ctx.lineTo(left + (i * 0.33 + 0.33 + 0.5) * s, top)
        ctx.lineTo(left + (i * 0.33 + 0.5) * s, top)
      }
      ctx.fill()
      ctx.restore()
      ctx.fillStyle = "#ffb703"
      ctx.beginPath()
      ctx.arc(left + w / 2, top - 0.1 * s, 0.12 * s, 0, Math.PI * 2)
      ctx.fill()
      ctx.globalAlpha = 1
    }
    const drawCoin = (c: RunnerCoin) => {
      const z = c.at - state.distance
      if (z < BEHIND) return
      const s = scale(z)
      ctx.globalAlpha = fog(z)
      coin(ctx, sx(c.lane * LANE_WIDTH, z), sy(c.height, z), 0.36 * s, Math.cos(state.time * 5 + c.id * 0.7))
      ctx.globalAlpha = 1
    }
    for (const o of state.obstacles) {
      const z = o.at - state.distance
      if (z > FAR || o.at + o.length - state.distance < BEHIND) continue
      things.push({ z: Math.max(BEHIND, z), draw: () => (o.kind === "train" ? drawTrain(o) : drawBarrier(o)) })
    }
    for (const c of state.pickups) {
      const z = c.at - state.distance
      if (z < FAR && z > BEHIND) things.push({ z, draw: () => drawCoin(c) })
    }
    things.push({ z: 0, draw: () => drawRunner(ctx, state, sx(state.x * LANE_WIDTH, 0), sy(0, 0), sy(state.y, 0), scale(0)) })
    things.sort((a, b) => b.z - a.z)
    for (const thing of things) thing.draw()

    // Sparkles for coins, dust kicked up by take-offs and landings, a red flash for a hit.
    const feetX = sx(state.x * LANE_WIDTH, 0)
    const s0 = scale(0)
    for (const e of state.events) {
      const age = state.time - e.time
      const key = keyOf(e.time, e.x)
      if (e.kind === "coin") {
        burst(ctx, { key, x: feetX, y: sy(state.y + 1.2, 0), age, life: 0.45, count: 7, speed: 4 * s0, gravity: 4 * s0, size: 0.22 * s0, colours: ["#fff3b0", "#ffd21f", "#ffffff"] })
      } else if (e.kind === "land" || e.kind === "jump") {
        burst(ctx, { key, x: feetX, y: sy(0.1, 0), age, life: 0.4, count: 9, speed: 2.2 * s0, gravity: -1 * s0, size: 0.35 * s0, colours: ["rgba(235,225,210,0.8)", "rgba(200,190,175,0.8)"] })
      } else if (e.kind === "hit" && age < 0.4) {
        ctx.fillStyle = `rgba(255,40,40,${0.35 * (1 - age / 0.4)})`
        ctx.fillRect(0, 0, width, height)
      }
    }

    // Speed streaks at the edges.
    ctx.strokeStyle = "rgba(255,255,255,0.35)"
    ctx.lineWidth = Math.max(1, 2 * u)
    ctx.beginPath()
    for (let i = 0; i < 10; i++) {
      const random = randomFor(seed ^ 0x27d4eb2f, i)
      const angle = (random() < 0.5 ? Math.PI : 0) + (random() - 0.5) * 1.4
      const phase = (state.time * (0.9 + random()) + random()) % 1
      const r0 = height * (0.35 + phase * 0.6)
      ctx.moveTo(centre + Math.cos(angle) * r0, horizon + 120 * u + Math.sin(angle) * r0 * 0.8)
      ctx.lineTo(centre + Math.cos(angle) * (r0 + 90 * u), horizon + 120 * u + Math.sin(angle) * (r0 + 90 * u) * 0.8)
    }
    ctx.stroke()

    // The HUD: score and coins top right, pause and multiplier top left.
    panel(ctx, width - 250 * u, 22 * u, 232 * u, 58 * u)
    gameText(ctx, padded(state.score, 7), width - 30 * u, 52 * u, 40 * u, "#ffffff", "right")
    panel(ctx, width - 190 * u, 90 * u, 172 * u, 50 * u)
    coin(ctx, width - 160 * u, 115 * u, 17 * u)
    gameText(ctx, String(state.coins), width - 30 * u, 116 * u, 32 * u, "#ffd21f", "right")
    ctx.fillStyle = "rgba(20,16,48,0.55)"
    ctx.beginPath()
    ctx.arc(50 * u, 51 * u, 29 * u, 0, Math.PI * 2)
    ctx.fill()
    ctx.fillStyle = "#ffffff"
    ctx.fillRect(40 * u, 38 * u, 7 * u, 26 * u)
    ctx.fillRect(53 * u, 38 * u, 7 * u, 26 * u)
    panel(ctx, 92 * u, 28 * u, 76 * u, 46 * u, "#ff3d7f")
    gameText(ctx, `x${Math.min(30, 2 + Math.floor(state.time / 15))}`, 130 * u, 52 * u, 28 * u, "#ffffff", "center")
  }
}

/** The runner from behind: cap, backpack, pumping arms and legs; tucked in a jump, leaning into a lane change. */
const drawRunner = (ctx: SKRSContext2D, state: RunnerState, x: number, groundY: number, feetY: number, s: number) => {
  const airborne = state.y > 0.02
  ctx.fillStyle = "rgba(0,0,0,0.3)"
  ctx.beginPath()
  ctx.ellipse(x, groundY, (0.45 * s) / (1 + state.y * 0.5), (0.14 * s) / (1 + state.y * 0.5), 0, 0, Math.PI * 2)
  ctx.fill()

  const phase = state.time * Math.PI * 2 * 2.6
  const hitBlink = state.events.some((e) => e.kind === "hit" && state.time - e.time < 0.6) && Math.floor(state.time * 16) % 2 === 0
  ctx.save()
  ctx.translate(x, feetY)
  ctx.rotate(Math.max(-0.3, Math.min(0.3, (state.lane - state.x) * 0.35)))
  ctx.scale(s * RUNNER_SIZE, s * RUNNER_SIZE)
  ctx.translate(0, airborne ? 0 : -Math.abs(Math.cos(phase)) * 0.06)
  ctx.lineCap = "round"
  ctx.lineJoin = "round"
  if (hitBlink) ctx.globalAlpha = 0.45

  // Legs: a lifted foot shows its sole.
  for (const side of [-1, 1]) {
    const lift = airborne ? 0.75 : Math.max(0, Math.sin(phase) * side)
    const footY = -0.08 - lift * 0.4
    ctx.strokeStyle = "#2f4fc9"
    ctx.lineWidth = 0.19
    ctx.beginPath()
    ctx.moveTo(side * 0.11, -0.92)
    ctx.lineTo(side * 0.14, -0.5 - lift * 0.08)
    ctx.lineTo(side * 0.13, footY)
    ctx.stroke()
    ctx.fillStyle = lift > 0.2 ? "#f1f1f1" : "#ff3b3b"
    ctx.beginPath()
    ctx.roundRect(side * 0.13 - 0.11, footY - 0.06, 0.22, 0.14, 0.05)
    ctx.fill()
    ctx.fillStyle = "#ff3b3b"
    ctx.fillRect(side * 0.13 - 0.11, footY + 0.04, 0.22, 0.04)
  }
  // Hoodie.
  ctx.fillStyle = "#18b29a"
  ctx.beginPath()
  ctx.roundRect(-0.27, -1.45, 0.54, 0.62, 0.12)
  ctx.fill()
  // Arms swing against the legs; up high in a jump.
  for (const side of [-1, 1]) {
    const swing = airborne ? -0.5 : Math.sin(phase) * -side * 0.2
    ctx.strokeStyle = "#149a85"
    ctx.lineWidth = 0.13
    ctx.beginPath()
    ctx.moveTo(side * 0.25, -1.36)
    ctx.lineTo(side * 0.36, -1.1 + swing * 0.5)
    ctx.lineTo(side * 0.34, -0.95 + swing)
    ctx.stroke()
    ctx.fillStyle = "#f2b48c"
    ctx.beginPath()
    ctx.arc(side * 0.34, -0.93 + swing, 0.075, 0, Math.PI * 2)
    ctx.fill()
  }
  // Backpack with straps.
  ctx.fillStyle = "#ff9f1c"
  ctx.beginPath()
  ctx.roundRect(-0.2, -1.36, 0.4, 0.42, 0.08)
  ctx.fill()
  ctx.fillStyle = "#e07b00"
  ctx.beginPath()
  ctx.roundRect(-0.14, -1.12, 0.28, 0.15, 0.04)
  ctx.fill()
  // Head from behind: neck, hair, ears, and a cap worn backwards with its peak toward us.
  ctx.fillStyle = "#f2b48c"
  ctx.fillRect(-0.06, -1.5, 0.12, 0.08)
  ctx.fillStyle = "#4a2c17"
  ctx.beginPath()
  ctx.arc(0, -1.62, 0.18, 0, Math.PI * 2)
  ctx.fill()
  ctx.fillStyle = "#f2b48c"
  for (const side of [-1, 1]) {
    ctx.beginPath()
    ctx.arc(side * 0.18, -1.61, 0.045, 0, Math.PI * 2)
    ctx.fill()
  }
  ctx.fillStyle = "#e63946"
  ctx.beginPath()
  ctx.arc(0, -1.66, 0.19, Math.PI, 0)
  ctx.fill()
  ctx.fillStyle = "#b51f2c"
  ctx.beginPath()
  ctx.roundRect(-0.15, -1.68, 0.3, 0.07, 0.03)
  ctx.fill()
  ctx.restore()
}
