// The racer from behind the car: a pseudo-3D highway of striped segments bending and climbing to the horizon,
// scenery sliding with the turns, traffic to pass, the player's car swaying as it steers, flames under nitro,
// speed streaks and a speedometer.
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas"
import {
  RACER_CAR_WIDTH,
  RACER_ROAD_HALF_WIDTH,
  racerCurvature,
  racerHeight,
  type RacerState,
  type TrafficKind
} from "../../domain/games/racer.ts"
import { randomFor } from "../../domain/gameplay.ts"
import { burst, FONT, gameText, keyOf, padded, type PainterFactory, panel, sprite } from "./game-kit.ts"

const SEGMENT = 3
const SEGMENTS = 130
const CAMERA_HEIGHT = 4.4
const CAMERA_BACK = 7
const RUMBLE = 0.9
/** Sprites are drawn at this many pixels a metre and scaled down. */
const SPRITE_SCALE = 60

interface Palette {
  readonly sky: readonly [string, string, string]
  readonly far: string
  readonly near: string
  readonly grass: readonly [string, string]
  readonly road: readonly [string, string]
}

const PALETTES: ReadonlyArray<Palette> = [
  { sky: ["#1e7bff", "#72c2ff", "#d8f3ff"], far: "#7d9ad6", near: "#3f9b4f", grass: ["#4cc94a", "#41b63f"], road: ["#6b6e78", "#646771"] },
  { sky: ["#5b2a86", "#f0608a", "#ffc46b"], far: "#9a4f8f", near: "#5d3a78", grass: ["#2e9c5a", "#288c50"], road: ["#5d5a68", "#575462"] },
  { sky: ["#2a9df4", "#8ed1fc", "#fff1c9"], far: "#d9a066", near: "#c07a3c", grass: ["#e8c37e", "#dfb772"], road: ["#77716c", "#6f6964"] }
]

const CAR_COLOURS = ["#e63946", "#1d9bf0", "#ffd60a", "#2ec4b6", "#ff7b00", "#9d4edd", "#f1f1f1", "#3a86ff"]
const SIZES: Record<TrafficKind, { readonly width: number; readonly height: number }> = {
  car: { width: RACER_CAR_WIDTH, height: 1.45 },
  van: { width: 2.05, height: 2.2 },
  truck: { width: 2.5, height: 3.4 }
}

/** A vehicle from behind, `SPRITE_SCALE` pixels a metre, its wheels on the sprite's bottom edge. */
const vehicleSprite = (kind: TrafficKind | "player", colour: string): Canvas => {
  const { width, height } = kind === "player" ? { width: 2.05, height: 1.25 } : SIZES[kind]
  const k = SPRITE_SCALE
  return sprite(width * k, height * k, (ctx) => {
    const w = width * k
    const h = height * k
    ctx.fillStyle = "#15151c"
    ctx.beginPath()
    ctx.roundRect(w * 0.04, h - 0.45 * k, 0.38 * k, 0.45 * k, 0.08 * k)
    ctx.roundRect(w * 0.96 - 0.38 * k, h - 0.45 * k, 0.38 * k, 0.45 * k, 0.08 * k)
    ctx.fill()
    const body = ctx.createLinearGradient(0, 0, 0, h)
    body.addColorStop(0, "#ffffff")
    body.addColorStop(0.12, colour)
    body.addColorStop(1, colour)
    if (kind === "truck" || kind === "van") {
      ctx.fillStyle = kind === "truck" ? "#e9ecf2" : body
      ctx.beginPath()
      ctx.roundRect(0, 0, w, h - 0.3 * k, 0.12 * k)
      ctx.fill()
      ctx.fillStyle = "rgba(0,0,0,0.12)"
      ctx.fillRect(w / 2 - 0.02 * k, 0.1 * k, 0.04 * k, h - 0.7 * k)
      if (kind === "truck") {
        ctx.fillStyle = colour
        ctx.fillRect(0, h - 1.0 * k, w, 0.25 * k)
      } else {
        ctx.fillStyle = "#1b2a41"
        ctx.beginPath()
        ctx.roundRect(w * 0.14, 0.25 * k, w * 0.72, 0.55 * k, 0.08 * k)
        ctx.fill()
      }
    } else {
      // A car: a narrower glass cabin over a wide body.
      ctx.fillStyle = colour
      ctx.beginPath()
      ctx.moveTo(w * 0.2, h * 0.42)
      ctx.lineTo(w * 0.28, 0)
      ctx.lineTo(w * 0.72, 0)
      ctx.lineTo(w * 0.8, h * 0.42)
      ctx.fill()
      ctx.fillStyle = "#1b2a41"
      ctx.beginPath()
      ctx.moveTo(w * 0.25, h * 0.4)
      ctx.lineTo(w * 0.31, h * 0.07)
      ctx.lineTo(w * 0.69, h * 0.07)
      ctx.lineTo(w * 0.75, h * 0.4)
      ctx.fill()
      ctx.fillStyle = "rgba(255,255,255,0.25)"
      ctx.fillRect(w * 0.31, h * 0.09, w * 0.38, h * 0.04)
      ctx.fillStyle = body
      ctx.beginPath()
      ctx.roundRect(0, h * 0.38, w, h * 0.45, 0.18 * k)
      ctx.fill()
    }
    // Bumper, tail lights, plate.
    ctx.fillStyle = "#2b2d36"
    ctx.fillRect(w * 0.06, h - 0.42 * k, w * 0.88, 0.14 * k)
    ctx.fillStyle = "#ff1f3d"
    const lightY = kind === "player" || kind === "car" ? h * 0.5 : h - 0.75 * k
    ctx.fillRect(w * 0.04, lightY, w * 0.22, 0.16 * k)
    ctx.fillRect(w * 0.74, lightY, w * 0.22, 0.16 * k)
    ctx.fillStyle = "rgba(255,120,120,0.9)"
    ctx.fillRect(w * 0.06, lightY + 0.03 * k, w * 0.08, 0.07 * k)
    ctx.fillRect(w * 0.86, lightY + 0.03 * k, w * 0.08, 0.07 * k)
    ctx.fillStyle = "#f4f4f4"
    ctx.fillRect(w / 2 - 0.25 * k, h - 0.62 * k, 0.5 * k, 0.17 * k)
    if (kind === "player") {
      // A spoiler and twin exhausts.
      ctx.fillStyle = "#14141a"
      ctx.fillRect(w * 0.2, h * 0.3, 0.06 * k, h * 0.12)
      ctx.fillRect(w * 0.8 - 0.06 * k, h * 0.3, 0.06 * k, h * 0.12)
      ctx.fillRect(w * 0.06, h * 0.24, w * 0.88, 0.09 * k)
      ctx.fillStyle = "#9aa0a6"
      for (const ex of [0.4, 0.6]) {
        ctx.beginPath()
        ctx.arc(w * ex, h - 0.3 * k, 0.07 * k, 0, Math.PI * 2)
        ctx.fill()
      }
    }
  })
}

const palmSprite = (): Canvas => {
  const k = SPRITE_SCALE / 2
  return sprite(6 * k, 9 * k, (ctx) => {
    ctx.strokeStyle = "#8b5a2b"
    ctx.lineWidth = 0.35 * k
    ctx.lineCap = "round"
    ctx.beginPath()
    ctx.moveTo(3 * k, 9 * k)
    ctx.quadraticCurveTo(2.2 * k, 5 * k, 3.2 * k, 2 * k)
    ctx.stroke()
    ctx.fillStyle = "#1f9e4a"
    for (let i = 0; i < 7; i++) {
      const a = -Math.PI + (i / 6) * Math.PI
      ctx.save()
      ctx.translate(3.2 * k, 2 * k)
      ctx.rotate(a + 0.3)
      ctx.beginPath()
      ctx.ellipse(1.3 * k, 0.3 * k, 1.6 * k, 0.35 * k, 0.35, 0, Math.PI * 2)
      ctx.fill()
      ctx.restore()
    }
  })
}

const billboardSprite = (text: string, colour: string): Canvas => {
  const k = SPRITE_SCALE / 2
  return sprite(7 * k, 6 * k, (ctx) => {
    ctx.fillStyle = "#4a4a55"
    ctx.fillRect(1.2 * k, 3 * k, 0.3 * k, 3 * k)
    ctx.fillRect(5.5 * k, 3 * k, 0.3 * k, 3 * k)
    ctx.fillStyle = colour
    ctx.fillRect(0, 0, 7 * k, 3.2 * k)
    ctx.strokeStyle = "#ffffff"
    ctx.lineWidth = 0.2 * k
    ctx.strokeRect(0.2 * k, 0.2 * k, 6.6 * k, 2.8 * k)
    ctx.fillStyle = "#ffffff"
    ctx.font = `bold ${Math.round(1.4 * k)}px ${FONT}`
    ctx.textAlign = "center"
    ctx.textBaseline = "middle"
    ctx.fillText(text, 3.5 * k, 1.65 * k)
  })
}

/** A band of hills or mountains across twice the screen, to slide sideways as the road turns. */
const ridge = (width: number, height: number, colour: string, peaks: number, random: () => number): Canvas =>
  sprite(width * 2, height, (ctx) => {
    ctx.fillStyle = colour
    ctx.beginPath()
    ctx.moveTo(0, height)
    const heights = Array.from({ length: peaks }, () => height * (0.3 + random() * 0.7))
    for (let i = 0; i <= peaks; i++) {
      const x = (i / peaks) * width * 2
      const y = height - heights[i % peaks]!
      const prev = (i - 0.5) / peaks * width * 2
      if (i === 0) ctx.lineTo(x, y)
      else ctx.quadraticCurveTo(prev, y - height * 0.1, x, y)
    }
    ctx.lineTo(width * 2, height)
    ctx.fill()
  })

export const racerPainter: PainterFactory<RacerState> = (width, height, seed) => {
  const u = height / 960
  const horizon = height * 0.37
  const random = randomFor(seed, 2)
  const palette = PALETTES[Math.floor(random() * PALETTES.length)]!
  const playerColour = ["#ff2d55", "#00c2ff", "#ffd000", "#7cff4f"][Math.floor(random() * 4)]!
  const sky = sprite(width, horizon + 1, (ctx) => {
    const g = ctx.createLinearGradient(0, 0, 0, horizon)
    g.addColorStop(0, palette.sky[0])
    g.addColorStop(0.6, palette.sky[1])
    g.addColorStop(1, palette.sky[2])
    ctx.fillStyle = g
    ctx.fillRect(0, 0, width, horizon + 1)
    ctx.fillStyle = "rgba(255,250,220,0.9)"
    ctx.beginPath()
    ctx.arc(width * 0.7, horizon * 0.55, 38 * u, 0, Math.PI * 2)
    ctx.fill()
  })
  const far = ridge(width, 130 * u, palette.far, 7, random)
  const near = ridge(width, 70 * u, palette.near, 11, random)
  const traffic = new Map<string, Canvas>()
  const vehicle = (kind: TrafficKind, colour: number) => {
    const key = `${kind}${colour}`
    const made = traffic.get(key) ?? vehicleSprite(kind, CAR_COLOURS[colour % CAR_COLOURS.length]!)
    traffic.set(key, made)
    return made
  }
  const player = vehicleSprite("player", playerColour)
  const palm = palmSprite()
  const billboards = [billboardSprite("TURBO", "#ff006e"), billboardSprite("NITRO", "#3a86ff"), billboardSprite("SPEED", "#fb5607")]

  return (ctx: SKRSContext2D, state: RacerState) => {
    const boost = Math.max(0, Math.min(1, (state.boostUntil - state.time) * 2))
    const focal = height * 0.6 * (1 - 0.08 * boost)
    const camZ = state.distance - CAMERA_BACK
    const camX = state.x * 0.75
    const camY = racerHeight(seed, state.distance) + CAMERA_HEIGHT
    const crash = state.events.find((e) => e.kind === "crash" && state.time - e.time < 0.5)
    const shake = crash === undefined ? 0 : Math.sin(state.time * 90) * 8 * u * (1 - (state.time - crash.time) / 0.5)
    ctx.save()
    ctx.translate(shake, 0)

    ctx.drawImage(sky, 0, 0)
    const slide = (layer: Canvas, factor: number, y: number) => {
      const offset = (((-state.heading * width * factor) % layer.width) + layer.width) % layer.width
      ctx.drawImage(layer, -offset, y)
      ctx.drawImage(layer, layer.width - offset, y)
    }
    slide(far, 0.9, horizon - far.height + 2)
    slide(near, 1.8, horizon - near.height + 2)

    // The road, near to far: each segment's screen row, clipped behind the crests of hills.
    const first = Math.floor((camZ + 1) / SEGMENT)
    const rows: Array<{ n: number; d: number; x: number; y: number; clip: number }> = []
    let x = 0
    let slope = 0
    for (let i = 0; i <= SEGMENTS; i++) {
      const n = first + i
      const d = Math.max(0.8, n * SEGMENT - camZ)
      rows.push({ n, d, x, y: racerHeight(seed, n * SEGMENT), clip: height })
      const next = Math.max(0.8, (n + 1) * SEGMENT - camZ)
      x += slope * (next - d)
      slope += racerCurvature(seed, n * SEGMENT) * (next - d)
    }
    const screen = (row: { d: number; x: number; y: number }, dx: number) => ({
      x: width / 2 + (row.x + dx - camX) * (focal / row.d),
      y: horizon + (camY - row.y) * (focal / row.d),
      s: focal / row.d
    })
    const paths = {
      grass: new QuadBatch(),
      rumble: [new QuadBatch(), new QuadBatch()],
      road: [new QuadBatch(), new QuadBatch()],
      paint: new QuadBatch()
    }
    let maxY = height
    for (let i = 0; i < SEGMENTS; i++) {
      const a = rows[i]!
      const b = rows[i + 1]!
      a.clip = maxY
      const near = screen(a, 0)
      const far = screen(b, 0)
      if (far.y >= maxY || far.y >= near.y) continue
      // Cut the near edge at what is already drawn in front.
      const t = near.y > maxY ? (near.y - maxY) / (near.y - far.y) : 0
      const y1 = near.y + (far.y - near.y) * t
      const cx1 = near.x + (far.x - near.x) * t
      const s1 = near.s + (far.s - near.s) * t
      const trapezoid = (path: QuadBatch, x0: number, x1: number) => path.quad(cx1 + x0 * s1, cx1 + x1 * s1, y1, far.x + x0 * far.s, far.x + x1 * far.s, far.y)
      const stripe = Math.floor(a.n / 3) % 2
      if (stripe === 0) paths.grass.quad(0, width, y1, 0, width, far.y)
      for (const side of [-1, 1]) trapezoid(paths.rumble[a.n % 2]!, side * RACER_ROAD_HALF_WIDTH, side * (RACER_ROAD_HALF_WIDTH + RUMBLE))
      trapezoid(paths.road[stripe]!, -RACER_ROAD_HALF_WIDTH, RACER_ROAD_HALF_WIDTH)
      for (const side of [-1, 1]) trapezoid(paths.paint, side * (RACER_ROAD_HALF_WIDTH - 0.5) - 0.12, side * (RACER_ROAD_HALF_WIDTH - 0.5) + 0.12)
      if (a.n % 4 < 2) for (const lane of [-1.9, 1.9]) trapezoid(paths.paint, lane - 0.1, lane + 0.1)
      maxY = far.y
    }
    const fill = (path: QuadBatch, colour: string) => {
      ctx.fillStyle = colour
      ctx.beginPath()
      path.trace(ctx)
      ctx.fill()
    }
    // Light stripes over dark grass that also fills any gap left at the horizon.
    ctx.fillStyle = palette.grass[1]
    ctx.fillRect(0, horizon, width, height - horizon)
    fill(paths.grass, palette.grass[0])
    fill(paths.rumble[0]!, "#e63946")
    fill(paths.rumble[1]!, "#ffffff")
    fill(paths.road[0]!, palette.road[0])
    fill(paths.road[1]!, palette.road[1])
    fill(paths.paint, "#f4f4f4")

    // Scenery, traffic and nitro, far to near, each cut at the crest in front of it.
    const at = (z: number, dx: number) => {
      const i = Math.floor((z - rows[0]!.n * SEGMENT) / SEGMENT)
      const row = rows[Math.max(0, Math.min(rows.length - 2, i))]!
      const next = rows[Math.max(0, Math.min(rows.length - 1, i + 1))]!
      const f = Math.max(0, Math.min(1, (z - camZ - row.d) / Math.max(0.01, next.d - row.d)))
      const point = { d: row.d + (next.d - row.d) * f, x: row.x + (next.x - row.x) * f, y: row.y + (next.y - row.y) * f }
      return { ...screen(point, dx), clip: row.clip }
    }
    const stamp = (image: Canvas, z: number, dx: number, metresWide: number, pixelsPerMetre = SPRITE_SCALE) => {
      if (z - camZ < 2) return
      const p = at(z, dx)
      const w = metresWide * p.s
      const h = (image.height / pixelsPerMetre) * p.s
      if (w < 1.5 || p.y - h > p.clip) return
      const cut = p.y > p.clip
      if (cut) {
        ctx.save()
        ctx.beginPath()
        ctx.rect(0, 0, width, p.clip)
        ctx.clip()
      }
      ctx.drawImage(image, p.x - w / 2, p.y - h, w, h)
      if (cut) ctx.restore()
    }
    type Thing = { readonly z: number; readonly draw: () => void }
    const things: Array<Thing> = []
    for (let i = SEGMENTS - 1; i >= 0; i--) {
      const n = rows[i]!.n
      if (n % 4 !== 0) continue
      const r = randomFor(seed ^ 0x7f4a7c15, n)
      const side = r() < 0.5 ? -1 : 1
      const roll = r()
      const dx = side * (RACER_ROAD_HALF_WIDTH + RUMBLE + 2.5 + r() * 5)
      const z = n * SEGMENT
      if (roll < 0.55) things.push({ z, draw: () => stamp(palm, z, dx, 6, SPRITE_SCALE / 2) })
      else if (roll < 0.7) things.push({ z, draw: () => stamp(billboards[n % billboards.length]!, z, dx, 7, SPRITE_SCALE / 2) })
    }
    // Reflector posts along both edges, close together, so the speed shows.
    for (let i = 0; i < 45; i++) {
      const n = rows[i]!.n
      if (n % 3 !== 0) continue
      const z = n * SEGMENT
      for (const side of [-1, 1]) {
        things.push({
          z,
          draw: () => {
            if (z - camZ < 2) return
            const p = at(z, side * (RACER_ROAD_HALF_WIDTH + RUMBLE + 0.6))
            if (p.y > p.clip + 1) return
            ctx.fillStyle = "#f4f4f4"
            ctx.fillRect(p.x - 0.09 * p.s, p.y - 1.0 * p.s, 0.18 * p.s, 1.0 * p.s)
            ctx.fillStyle = "#ff3d3d"
            ctx.fillRect(p.x - 0.09 * p.s, p.y - 0.95 * p.s, 0.18 * p.s, 0.18 * p.s)
          }
        })
      }
    }
    for (const car of state.traffic) {
      const image = vehicle(car.kind, car.colour)
      things.push({ z: car.z, draw: () => stamp(image, car.z, car.lane, SIZES[car.kind].width) })
    }
    for (const nitro of state.pickups) {
      things.push({
        z: nitro.z,
        draw: () => {
          if (nitro.z - camZ < 2) return
          const p = at(nitro.z, nitro.lane)
          if (p.y > p.clip + 2) return
          const bob = Math.sin(state.time * 6 + nitro.id) * 0.15
          const r = 0.7 * p.s
          ctx.fillStyle = "rgba(0,0,0,0.25)"
          ctx.beginPath()
          ctx.ellipse(p.x, p.y, r, r * 0.3, 0, 0, Math.PI * 2)
          ctx.fill()
          ctx.fillStyle = "#00d5ff"
          ctx.beginPath()
          ctx.roundRect(p.x - r * 0.55, p.y - (1.8 + bob) * p.s, r * 1.1, 1.3 * p.s, r * 0.3)
          ctx.fill()
          ctx.fillStyle = "#ffffff"
          ctx.fillRect(p.x - r * 0.15, p.y - (1.65 + bob) * p.s, r * 0.3, 1.0 * p.s)
        }
      })
    }
    things.sort((a, b) => b.z - a.z)
    for (const thing of things) if (thing.z > state.distance - CAMERA_BACK * 0.5) thing.draw()

    // The player's car: swaying with the steering, bouncing a little, flames from the exhausts under nitro.
    const car = at(state.distance, state.x)
    const carW = 2.05 * car.s
    const carH = 1.25 * car.s
    const bounce = Math.sin(state.time * 23) * 0.6 * u + Math.sin(state.time * 7.3) * 0.8 * u
    ctx.fillStyle = "rgba(0,0,0,0.35)"
    ctx.beginPath()
    ctx.ellipse(car.x, car.y, carW * 0.58, carW * 0.1, 0, 0, Math.PI * 2)
    ctx.fill()
    ctx.save()
    ctx.translate(car.x, car.y + bounce)
    ctx.rotate(Math.max(-0.08, Math.min(0.08, state.vx * 0.008 + racerCurvature(seed, state.distance) * state.speed * 0.05)))
    ctx.drawImage(player, -carW / 2, -carH, carW, carH)
    // Nitro: flames blasting back out of both exhausts.
    if (boost > 0) {
      for (const ex of [-0.1, 0.1]) {
        const flicker = 0.75 + 0.25 * Math.sin(state.time * 57 + ex * 31)
        const r = 0.2 * car.s * flicker * boost
        const x = ex * carW
        const y = -0.3 * car.s
        for (const [k, colour] of [[1.6, "rgba(255,90,0,0.55)"], [1.1, "rgba(255,190,40,0.9)"], [0.6, "rgba(210,245,255,1)"]] as const) {
          ctx.fillStyle = colour
          ctx.beginPath()
          ctx.arc(x, y, r * k, 0, Math.PI * 2)
          ctx.fill()
        }
      }
    }
    ctx.restore()
    if (crash !== undefined) {
      burst(ctx, { key: keyOf(crash.time), x: car.x, y: car.y - carH * 0.6, age: state.time - crash.time, life: 0.5, count: 14, speed: 300 * u, gravity: 900 * u, size: 7 * u, colours: ["#ffd60a", "#ff7b00", "#ffffff"], square: true })
    }

    // Speed streaks from the vanishing point, more of them under nitro.
    const streaks = 8 + Math.round(boost * 10)
    ctx.strokeStyle = `rgba(255,255,255,${0.25 + boost * 0.3})`
    ctx.lineWidth = Math.max(1, 2.5 * u)
    ctx.beginPath()
    for (let i = 0; i < streaks; i++) {
      const r = randomFor(seed ^ 0x165667b1, i)
      const angle = (r() < 0.5 ? Math.PI : 0) + (r() - 0.5) * 1.2
      const phase = (state.time * (1.2 + r()) * (state.speed / 50) + r()) % 1
      const r0 = height * (0.3 + phase * 0.7)
      ctx.moveTo(width / 2 + Math.cos(angle) * r0, horizon + Math.sin(angle) * r0 * 0.7)
      ctx.lineTo(width / 2 + Math.cos(angle) * (r0 + 120 * u), horizon + Math.sin(angle) * (r0 + 120 * u) * 0.7)
    }
    ctx.stroke()
    ctx.restore()

    // Pop-ups for overtakes and nitro.
    for (const e of state.events) {
      const age = state.time - e.time
      if (e.kind === "overtake" && age < 0.8) {
        ctx.globalAlpha = 1 - age / 0.8
        gameText(ctx, "+50", width / 2 + (e.x > state.x ? 90 : -90) * u, height * 0.56 - age * 120 * u, 34 * u, "#7cff4f", "center")
        ctx.globalAlpha = 1
      } else if (e.kind === "nitro" && age < 1) {
        ctx.fillStyle = `rgba(0,200,255,${0.25 * (1 - age)})`
        ctx.fillRect(0, 0, width, height)
        ctx.globalAlpha = Math.min(1, 2 * (1 - age))
        gameText(ctx, "NITRO!", width / 2, height * 0.3, (64 + 30 * Math.max(0, 0.2 - age) * 5) * u, "#00e5ff", "center")
        ctx.globalAlpha = 1
      }
    }

    // HUD: score and overtakes up top, the speedometer and nitro bar at the bottom.
    panel(ctx, width / 2 - 130 * u, 22 * u, 260 * u, 62 * u)
    gameText(ctx, padded(state.score, 6), width / 2, 54 * u, 42 * u, "#ffffff", "center")
    panel(ctx, 16 * u, 96 * u, 170 * u, 46 * u)
    gameText(ctx, `PASS ${state.overtakes}`, 32 * u, 120 * u, 26 * u, "#ffd60a")
    panel(ctx, width - 186 * u, 96 * u, 170 * u, 46 * u)
    gameText(ctx, `${(state.distance / 1000).toFixed(1)} KM`, width - 32 * u, 120 * u, 26 * u, "#ffffff", "right")
    speedometer(ctx, width - 112 * u, height - 120 * u, 92 * u, state.speed * 3.6, boost)
  }
}

/** A dial from 0 to 320 km/h with a coloured arc, a needle and the number in the middle. */
const speedometer = (ctx: SKRSContext2D, x: number, y: number, r: number, kmh: number, boost: number) => {
  const from = Math.PI * 0.75
  const sweep = Math.PI * 1.5
  const f = Math.min(1, kmh / 320)
  ctx.fillStyle = "rgba(15,12,40,0.7)"
  ctx.beginPath()
  ctx.arc(x, y, r, 0, Math.PI * 2)
  ctx.fill()
  ctx.lineCap = "round"
  ctx.lineWidth = r * 0.12
  ctx.strokeStyle = "rgba(255,255,255,0.15)"
  ctx.beginPath()
  ctx.arc(x, y, r * 0.8, from, from + sweep)
  ctx.stroke()
  ctx.strokeStyle = boost > 0 ? "#00e5ff" : f > 0.7 ? "#ff3d3d" : "#ffd60a"
  ctx.beginPath()
  ctx.arc(x, y, r * 0.8, from, from + sweep * f)
  ctx.stroke()
  ctx.strokeStyle = "#ffffff"
  ctx.lineWidth = Math.max(1, r * 0.03)
  ctx.beginPath()
  for (let i = 0; i <= 8; i++) {
    const a = from + (sweep * i) / 8
    ctx.moveTo(x + Math.cos(a) * r * 0.6, y + Math.sin(a) * r * 0.6)
    ctx.lineTo(x + Math.cos(a) * r * 0.68, y + Math.sin(a) * r * 0.68)
  }
  ctx.stroke()
  const needle = from + sweep * f
  ctx.strokeStyle = "#ff3d3d"
  ctx.lineWidth = r * 0.05
  ctx.beginPath()
  ctx.moveTo(x, y)
  ctx.lineTo(x + Math.cos(needle) * r * 0.7, y + Math.sin(needle) * r * 0.7)
  ctx.stroke()
  gameText(ctx, String(Math.round(kmh)), x, y + r * 0.35, r * 0.42, "#ffffff", "center")
  gameText(ctx, "KM/H", x, y + r * 0.68, r * 0.17, "#9ad1ff", "center")
}

/** Quads gathered to fill in one go: one fill per colour, not per segment. */
class QuadBatch {
  private readonly points: Array<number> = []
  /** A quad from a near edge (x0..x1 at y) to a far edge (fx0..fx1 at fy). */
  quad(x0: number, x1: number, y: number, fx0: number, fx1: number, fy: number): void {
    this.points.push(x0, y, x1, y, fx1, fy, fx0, fy)
  }
  trace(ctx: SKRSContext2D): void {
    const p = this.points
    for (let i = 0; i < p.length; i += 8) {
      ctx.moveTo(p[i]!, p[i + 1]!)
      ctx.lineTo(p[i + 2]!, p[i + 3]!)
      ctx.lineTo(p[i + 4]!, p[i + 5]!)
      ctx.lineTo(p[i + 6]!, p[i + 7]!)
      ctx.closePath()
    }
  }
}
