// How each art style inks a form: the same polygon becomes a wash, a cel-shaded fill, an outlined halftone, clay...
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import type { ArtStyle } from "../../domain/art-styles.ts"
import { mix, shade, withAlpha } from "./colours.ts"
import { bounds, type Poly, subdivide, translate } from "./shapes.ts"

export interface Brush {
  /** A large form (hill, building, cloud, tree): drawn with the style's full treatment. */
  readonly mass: (poly: Poly, colour: string) => void
  /** A small detail (window, star, petal): a plain fill, so it stays crisp. */
  readonly detail: (poly: Poly, colour: string, alpha?: number) => void
  /** Open polylines (rain, waves, grid, steam), stroked together. */
  readonly lines: (lines: ReadonlyArray<Poly>, colour: string, width: number, alpha?: number) => void
  /** A soft radial light. */
  readonly glow: (x: number, y: number, radius: number, colour: string, alpha: number) => void
}

/** Colour stops of a radial light, from its centre (0) to its rim (1). */
export type GlowStops = ReadonlyArray<readonly [number, string]>

/**
 * Fills the box around (x, y) with a radial gradient. It is painted small and scaled up: Skia dithers
 * gradients, and dither noise over a large area makes the PNG several times bigger and slower to encode.
 */
export const drawGlow = (ctx: SKRSContext2D, x: number, y: number, rx: number, ry: number, stops: GlowStops) => {
  const size = 64
  const sprite = createCanvas(size, size)
  const s = sprite.getContext("2d")
  const gradient = s.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, size / 2)
  for (const [offset, colour] of stops) gradient.addColorStop(offset, colour)
  s.fillStyle = gradient
  s.fillRect(0, 0, size, size)
  ctx.drawImage(sprite, x - rx, y - ry, rx * 2, ry * 2)
}

export const trace = (ctx: SKRSContext2D, poly: Poly) => {
  ctx.beginPath()
  poly.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)))
  ctx.closePath()
}

/** How far the shaded side of a form reaches: a share of its size, within limits of the picture. */
const shadeDepth = (poly: Poly, unit: number, share: number) => {
  const b = bounds(poly)
  return Math.min(Math.max(share * Math.min(b.x1 - b.x0, b.y1 - b.y0), unit * 0.004), unit * 0.05)
}

/** Fills `poly`, then its lit part in `lit`: what stays is a crescent of shadow on the side away from the light. */
const shadedFill = (ctx: SKRSContext2D, poly: Poly, shadow: SKRSContext2D["fillStyle"], lit: string, dx: number, dy: number) => {
  ctx.save()
  trace(ctx, poly)
  ctx.clip()
  ctx.fillStyle = shadow
  ctx.fill()
  trace(ctx, translate(poly, dx, dy))
  ctx.fillStyle = lit
  ctx.fill()
  ctx.restore()
}

/** Nudges every point a little, smoothly along the edge, like pigment spreading on wet paper. */
const wobble = (poly: Poly, amount: number, rnd: () => number): Poly => {
  const raw = poly.map(() => [(rnd() - 0.5) * 2 * amount, (rnd() - 0.5) * 2 * amount] as const)
  return poly.map(([x, y], i) => {
    const a = raw[(i + raw.length - 1) % raw.length]!
    const b = raw[i]!
    const c = raw[(i + 1) % raw.length]!
    return [x + (a[0] + b[0] * 2 + c[0]) / 4, y + (a[1] + b[1] * 2 + c[1]) / 4]
  })
}

export const makeBrush = (ctx: SKRSContext2D, style: ArtStyle, unit: number, rnd: () => number): Brush => {
  const plain = (poly: Poly, colour: string, alpha = 1) => {
    ctx.globalAlpha = alpha
    trace(ctx, poly)
    ctx.fillStyle = colour
    ctx.fill()
    ctx.globalAlpha = 1
  }
  const outline = (poly: Poly, width: number, alpha = 1) => {
    if (style.outline === null) return
    ctx.globalAlpha = alpha
    trace(ctx, poly)
    ctx.lineJoin = "round"
    ctx.lineWidth = width
    ctx.strokeStyle = style.outline
    ctx.stroke()
    ctx.globalAlpha = 1
  }
  const dots = (() => {
    const size = Math.max(4, Math.round(unit * 0.013))
    const tile = createCanvas(size, size)
    const t = tile.getContext("2d")
    t.fillStyle = "rgba(0,0,0,0.42)"
    t.beginPath()
    t.arc(size / 2, size / 2, size * 0.3, 0, Math.PI * 2)
    t.fill()
    return ctx.createPattern(tile, "repeat")!
  })()

  const masses: Record<ArtStyle["texture"], (poly: Poly, colour: string) => void> = {
    "watercolor-wash": (poly, colour) => {
      const fine = subdivide(poly, unit * 0.025)
      for (let pass = 0; pass < 3; pass++) plain(wobble(fine, unit * 0.012, rnd), colour, 0.4)
      // The wet edge: pigment gathers where a wash dries.
      ctx.globalAlpha = 0.28
      trace(ctx, wobble(fine, unit * 0.006, rnd))
      ctx.lineWidth = Math.max(1, unit * 0.0025)
      ctx.strokeStyle = shade(colour, -0.25)
      ctx.stroke()
      ctx.globalAlpha = 1
    },
    "cel-shading": (poly, colour) => {
      const d = shadeDepth(poly, unit, 0.14)
      shadedFill(ctx, poly, mix(shade(colour, -0.28), "#3a2a80", 0.12), colour, -0.35 * d, -d)
      outline(poly, Math.max(1, unit * 0.0025), 0.85)
    },
    halftone: (poly, colour) => {
      const d = shadeDepth(poly, unit, 0.18)
      plain(poly, colour)
      shadedFill(ctx, poly, dots, colour, -0.6 * d, -d)
      outline(poly, Math.max(1.5, unit * 0.0065))
    },
    clay: (poly, colour) => {
      const b = bounds(poly)
      const gradient = ctx.createLinearGradient(0, b.y0, 0, b.y1)
      gradient.addColorStop(0, shade(colour, 0.28))
      gradient.addColorStop(0.45, colour)
      gradient.addColorStop(1, shade(colour, -0.22))
      ctx.save()
      ctx.shadowColor = "rgba(40,20,60,0.28)"
      ctx.shadowBlur = unit * 0.03
      ctx.shadowOffsetX = unit * 0.006
      ctx.shadowOffsetY = unit * 0.014
      trace(ctx, poly)
      ctx.fillStyle = gradient
      ctx.fill()
      // A thick stroke in the same fill rounds every corner, like pressed clay.
      ctx.lineJoin = "round"
      ctx.lineWidth = unit * 0.012
      ctx.strokeStyle = gradient
      ctx.stroke()
      ctx.restore()
      // A soft highlight towards the light, as on a rounded lump.
      const w = b.x1 - b.x0
      const h = b.y1 - b.y0
      const r = Math.min(w, h) * 0.55
      const hx = b.x0 + w * 0.35
      const hy = b.y0 + Math.min(h * 0.3, r * 0.6)
      ctx.save()
      trace(ctx, poly)
      ctx.clip()
      drawGlow(ctx, hx, hy, r, r, [[0, "rgba(255,255,255,0.38)"], [1, "rgba(255,255,255,0)"]])
      ctx.restore()
    },
    pixels: (poly, colour) => plain(poly, colour),
    "film-grain": (poly, colour) => {
      const d = shadeDepth(poly, unit, 0.05)
      shadedFill(ctx, poly, shade(colour, 0.35), colour, 0, d)
    },
    "retro-grid": (poly, colour) => {
      const b = bounds(poly)
      const gradient = ctx.createLinearGradient(0, b.y0, 0, b.y1)
      gradient.addColorStop(0, colour)
      gradient.addColorStop(1, mix(colour, "#000000", 0.45))
      trace(ctx, poly)
      ctx.fillStyle = gradient
      ctx.fill()
      ctx.save()
      ctx.shadowColor = style.outline ?? colour
      ctx.shadowBlur = unit * 0.02
      outline(poly, Math.max(1, unit * 0.003))
      ctx.restore()
    },
    "paper-layers": (poly, colour) => {
      ctx.save()
      ctx.shadowColor = "rgba(30,20,10,0.32)"
      ctx.shadowBlur = unit * 0.022
      ctx.shadowOffsetX = unit * 0.003
      ctx.shadowOffsetY = unit * 0.008
      plain(poly, colour)
      ctx.restore()
      // The cut edge catches the light.
      ctx.globalAlpha = 0.5
      trace(ctx, poly)
      ctx.lineWidth = Math.max(1, unit * 0.002)
      ctx.strokeStyle = shade(colour, 0.25)
      ctx.stroke()
      ctx.globalAlpha = 1
    }
  }

  return {
    mass: masses[style.texture],
    detail: (poly, colour, alpha = 1) => plain(poly, colour, alpha),
    lines: (lines, colour, width, alpha = 1) => {
      ctx.globalAlpha = alpha
      ctx.beginPath()
      for (const line of lines) line.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)))
      ctx.lineCap = "round"
      ctx.lineJoin = "round"
      ctx.lineWidth = Math.max(1, width)
      ctx.strokeStyle = colour
      ctx.stroke()
      ctx.globalAlpha = 1
    },
    glow: (x, y, radius, colour, alpha) =>
      drawGlow(ctx, x, y, radius, radius, [[0, withAlpha(colour, alpha)], [0.4, withAlpha(colour, alpha * 0.45)], [1, withAlpha(colour, 0)]])
  }
}
