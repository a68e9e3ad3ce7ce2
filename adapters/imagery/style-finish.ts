// The last pass of each art style over the whole picture: paper, grain, halftone, glare, blinds, scanlines.
import { createCanvas } from "@napi-rs/canvas"
import type { ArtStyle } from "../../domain/art-styles.ts"
import { drawGlow } from "./brush.ts"
import { shade, withAlpha } from "./colours.ts"
import type { Canvas2D, LightSource, SceneColours } from "./scene-painter.ts"

export interface Finish extends Canvas2D {
  readonly style: ArtStyle
  readonly colours: SceneColours
  readonly light: LightSource | undefined
  readonly horizon: number
  readonly rnd: () => number
}

const unitOf = (f: Finish) => Math.min(f.width, f.height * 0.75)

/** Tints the edges of the frame: clear within `inner`, `colour` at `alpha` by `outer` (shares of the half-diagonal). */
const vignette = (f: Finish, colour: string, inner: number, outer: number, alpha: number) => {
  const reach = Math.hypot(f.width / 2, f.height / 2) * outer
  f.ctx.save()
  f.ctx.beginPath()
  f.ctx.rect(0, 0, f.width, f.height)
  f.ctx.clip()
  drawGlow(f.ctx, f.width / 2, f.height / 2, reach, reach, [[0, withAlpha(colour, 0)], [inner / outer, withAlpha(colour, 0)], [1, withAlpha(colour, alpha)]])
  f.ctx.restore()
}

/** Overlays grey noise; coarse cells keep the PNG small and read as paper or film rather than static. */
const grain = (f: Finish, strength: number) => {
  if (strength <= 0) return
  const { ctx } = f
  const cell = Math.max(1, Math.round(unitOf(f) / 270))
  const cells = 96
  const tile = createCanvas(cells * cell, cells * cell)
  const t = tile.getContext("2d")
  const image = t.createImageData(cells * cell, cells * cell)
  for (let cy = 0; cy < cells; cy++) {
    for (let cx = 0; cx < cells; cx++) {
      const r = f.rnd()
      const v = r < 0.2 ? 28 : r > 0.8 ? 228 : 128
      for (let y = cy * cell; y < (cy + 1) * cell; y++) {
        for (let x = cx * cell; x < (cx + 1) * cell; x++) {
          const i = (y * cells * cell + x) * 4
          image.data[i] = v
          image.data[i + 1] = v
          image.data[i + 2] = v
          image.data[i + 3] = 255
        }
      }
    }
  }
  t.putImageData(image, 0, 0)
  ctx.save()
  ctx.globalCompositeOperation = "overlay"
  ctx.globalAlpha = strength * 0.3
  ctx.fillStyle = ctx.createPattern(tile, "repeat")!
  ctx.fillRect(0, 0, f.width, f.height)
  ctx.restore()
}

const finishes: Record<ArtStyle["texture"], (f: Finish) => void> = {
  "watercolor-wash": (f) => {
    const { ctx, colours } = f
    ctx.save()
    ctx.globalCompositeOperation = "multiply"
    for (let i = 0; i < 6; i++) {
      const x = f.rnd() * f.width
      const y = f.rnd() * f.height
      const r = unitOf(f) * (0.2 + 0.3 * f.rnd())
      const pigment = i % 2 === 0 ? colours.horizon : colours.far
      drawGlow(ctx, x, y, r, r, [[0, withAlpha(pigment, 0.14)], [1, withAlpha(pigment, 0)]])
    }
    ctx.restore()
    // Unpainted paper shows at the edges.
    vignette(f, colours.light, 0.65, 1.1, 0.4)
    grain(f, f.style.grain)
  },
  "cel-shading": (f) => {
    const { ctx, colours } = f
    const unit = unitOf(f)
    const source = f.light ?? { x: f.width * 0.85, y: f.height * 0.05 }
    ctx.save()
    ctx.globalCompositeOperation = "screen"
    drawGlow(ctx, source.x, source.y, unit * 0.9, unit * 0.9,
      [[0, withAlpha(colours.warm, 0.55)], [0.3, withAlpha(colours.warm, 0.18)], [1, withAlpha(colours.warm, 0)]])
    if (f.light?.kind === "sun") {
      // Lens flares along a line from the light across the frame.
      const dx = f.width / 2 - source.x
      const dy = f.height / 2 - source.y
      const length = Math.hypot(dx, dy)
      const [ux, uy] = length > unit * 0.3 ? [dx / length, dy / length] : [-0.5, 0.87]
      for (const [t, r, alpha] of [[0.35, 0.03, 0.18], [0.6, 0.05, 0.1], [0.95, 0.02, 0.2], [1.35, 0.08, 0.08]] as const) {
        const x = source.x + ux * unit * t
        const y = source.y + uy * unit * t
        ctx.fillStyle = withAlpha(colours.light, alpha)
        ctx.beginPath()
        for (let k = 0; k < 6; k++) {
          const a = (k * Math.PI) / 3
          ctx.lineTo(x + Math.cos(a) * unit * r, y + Math.sin(a) * unit * r)
        }
        ctx.closePath()
        ctx.fill()
      }
    }
    ctx.restore()
    grain(f, f.style.grain)
  },
  halftone: (f) => {
    const { ctx, colours } = f
    const unit = unitOf(f)
    // Ben-Day dots on a slanted grid, growing towards the horizon as in printed comics.
    const spacing = Math.max(4, unit * 0.016)
    ctx.save()
    ctx.globalCompositeOperation = "multiply"
    ctx.fillStyle = withAlpha(shade(colours.sky, -0.3), 0.5)
    ctx.beginPath()
    for (let row = 0; row * spacing * 0.5 < f.horizon; row++) {
      const y = row * spacing * 0.5
      const radius = spacing * 0.38 * (y / f.horizon) ** 1.3
      if (radius < 0.5) continue
      for (let x = (row % 2) * spacing * 0.5; x < f.width; x += spacing) {
        ctx.moveTo(x + radius, y)
        ctx.arc(x, y, radius, 0, Math.PI * 2)
      }
    }
    ctx.fill()
    ctx.restore()
    grain(f, f.style.grain)
    // The panel: a paper gutter and a bold black frame.
    const margin = Math.round(unit * 0.03)
    ctx.fillStyle = colours.light
    ctx.beginPath()
    ctx.rect(0, 0, f.width, f.height)
    ctx.rect(margin, margin, f.width - margin * 2, f.height - margin * 2)
    ctx.fill("evenodd")
    ctx.lineWidth = Math.max(2, unit * 0.01)
    ctx.strokeStyle = f.style.outline ?? "#111111"
    ctx.strokeRect(margin, margin, f.width - margin * 2, f.height - margin * 2)
  },
  clay: (f) => {
    vignette(f, "#2a1a3a", 0.45, 1.05, 0.28)
    grain(f, f.style.grain)
  },
  pixels: () => {},
  "film-grain": (f) => {
    const { ctx, colours } = f
    const unit = unitOf(f)
    // Light through venetian blinds, falling across the frame.
    ctx.save()
    ctx.translate(f.width * 0.2, 0)
    ctx.rotate(-0.35)
    ctx.globalCompositeOperation = "screen"
    ctx.fillStyle = withAlpha(colours.light, 0.1)
    for (let k = 0; k < 9; k++) ctx.fillRect(-f.width, f.height * 0.12 + k * unit * 0.09, f.width * 3, unit * 0.05)
    ctx.restore()
    vignette(f, "#000000", 0.35, 1, 0.7)
    grain(f, f.style.grain)
  },
  "retro-grid": (f) => {
    const { ctx } = f
    const step = Math.max(3, Math.round(unitOf(f) / 180))
    ctx.fillStyle = "rgba(0,0,0,0.14)"
    for (let y = 0; y < f.height; y += step) ctx.fillRect(0, y, f.width, Math.max(1, Math.floor(step / 3)))
    vignette(f, "#0a0018", 0.5, 1.05, 0.45)
    grain(f, f.style.grain)
  },
  "paper-layers": (f) => {
    vignette(f, "#1e140a", 0.55, 1.05, 0.22)
    grain(f, f.style.grain)
  }
}

export const finishStyle = (f: Finish) => finishes[f.style.texture](f)
