// What every game's drawing shares: the painter's shape, chunky outlined HUD text, panels, sprites and
// seeded particle bursts, so the three games look like one family of mobile games.
import { type Canvas, createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { randomFor } from "../../domain/gameplay.ts"

/** Draws one frame of a game's state onto a canvas of the size the painter was made for. */
export type Painter<S> = (ctx: SKRSContext2D, state: S) => void

/** A game's painter for a canvas size and seed; it may prepare its backgrounds and sprites once, up front. */
export type PainterFactory<S> = (width: number, height: number, seed: number) => Painter<S>

export const FONT = "\"DejaVu Sans\""

/** Bold text with a dark outline and a drop shadow, as game HUDs draw it. */
export const gameText = (
  ctx: SKRSContext2D,
  text: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  align: "left" | "center" | "right" = "left"
): void => {
  ctx.font = `bold ${Math.round(size)}px ${FONT}`
  ctx.textAlign = align
  ctx.textBaseline = "middle"
  ctx.lineJoin = "round"
  ctx.lineWidth = Math.max(2, size * 0.16)
  ctx.strokeStyle = "rgba(0,0,0,0.45)"
  ctx.strokeText(text, x, y + size * 0.08)
  ctx.strokeStyle = "#1a1030"
  ctx.strokeText(text, x, y)
  ctx.fillStyle = fill
  ctx.fillText(text, x, y)
}

/** A rounded HUD panel. */
export const panel = (ctx: SKRSContext2D, x: number, y: number, w: number, h: number, fill = "rgba(20,16,48,0.55)"): void => {
  ctx.fillStyle = fill
  ctx.beginPath()
  ctx.roundRect(x, y, w, h, h / 2)
  ctx.fill()
}

/** A sprite drawn once into its own canvas, to be stamped each frame. */
export const sprite = (width: number, height: number, draw: (ctx: SKRSContext2D) => void): Canvas => {
  const canvas = createCanvas(Math.max(1, Math.ceil(width)), Math.max(1, Math.ceil(height)))
  draw(canvas.getContext("2d"))
  return canvas
}

/** Zero padded, as arcade scores are. */
export const padded = (n: number, digits: number): string => String(Math.max(0, Math.floor(n))).padStart(digits, "0")

/**
 * A burst of particles that `age` seconds ago left (x, y): each flies out, falls under `gravity` and fades by
 * `life`. The same `key` gives the same burst every frame, so bursts need no state of their own.
 */
export const burst = (
  ctx: SKRSContext2D,
  options: {
    readonly key: number
    readonly x: number
    readonly y: number
    readonly age: number
    readonly life: number
    readonly count: number
    readonly speed: number
    readonly gravity: number
    readonly size: number
    readonly colours: ReadonlyArray<string>
    readonly square?: boolean
  }
): void => {
  const { age, life } = options
  if (age < 0 || age > life) return
  const random = randomFor(options.key, 7)
  const fade = 1 - age / life
  for (let i = 0; i < options.count; i++) {
    const angle = random() * Math.PI * 2
    const speed = options.speed * (0.35 + random() * 0.65)
    const px = options.x + Math.cos(angle) * speed * age
    const py = options.y + Math.sin(angle) * speed * age + (options.gravity * age * age) / 2
    const size = options.size * (0.5 + random() * 0.5) * (0.4 + 0.6 * fade)
    ctx.globalAlpha = Math.min(1, fade * 1.5)
    ctx.fillStyle = options.colours[i % options.colours.length]!
    if (options.square === true) ctx.fillRect(px - size / 2, py - size / 2, size, size)
    else {
      ctx.beginPath()
      ctx.arc(px, py, size / 2, 0, Math.PI * 2)
      ctx.fill()
    }
  }
  ctx.globalAlpha = 1
}

/** A number made from a float, for seeding a burst from an event's time. */
export const keyOf = (...values: ReadonlyArray<number>): number =>
  values.reduce((h, v) => Math.imul(h ^ Math.round(v * 1000), 0x01000193) >>> 0, 0x811c9dc5)
