// Composes a scene from a plan, back to front: sky, lights in the sky, far land, ground, things standing on it, weather.
import type { SKRSContext2D } from "@napi-rs/canvas"
import type { ArtStyle } from "../../domain/art-styles.ts"
import { GROUND_MOTIFS, type Motif, type ScenePlan } from "../../domain/scene-motifs.ts"
import { mulberry32 } from "../../domain/seeded-random.ts"
import { type Brush, trace } from "./brush.ts"
import { mix, parseHex, shade } from "./colours.ts"
import {
  circle, cloudOutline, ellipse, heart, type Poly, type Pt, rect, rotate, roundedRect, underLine
} from "./shapes.ts"

/** The scene's colours: the style's palette, lit for the time of day. */
export interface SceneColours {
  readonly sky: string
  readonly horizon: string
  readonly far: string
  readonly near: string
  readonly accent: string
  readonly light: string
  readonly dark: string
  /** The colour of sunlight: the accent, except where the style keeps its accent for one spot. */
  readonly warm: string
  readonly water: string
  readonly sand: string
  /** Dunes and bare earth. */
  readonly earth: string
  readonly cloud: string
}

export interface LightSource {
  readonly kind: "sun" | "moon"
  readonly x: number
  readonly y: number
  readonly r: number
}

export interface Canvas2D {
  readonly ctx: SKRSContext2D
  readonly width: number
  readonly height: number
}

interface Scene extends Canvas2D {
  readonly unit: number
  readonly rnd: () => number
  readonly plan: ScenePlan
  readonly style: ArtStyle
  readonly c: SceneColours
  readonly brush: Brush
  readonly horizon: number
  readonly light: LightSource | undefined
  /** How busy the picture is: more clouds, stars and people for a lively mood. */
  readonly density: number
  /** Where things stand, from the farthest surface to the nearest; set by the ground motifs. */
  grounds: Array<(x: number) => number>
}

export const sceneColours = (style: ArtStyle, plan: ScenePlan): SceneColours => {
  const [sky0 = "#87b5e0", horizon0 = "#f5d0a9", far0 = "#7a9a80", near0 = "#3d6b4a", accent = "#ff8a3d", light = "#ffffff"] =
    style.palette
  // Noir keeps its single accent for one spot, so its light and its night stay grey.
  const monochrome = style.texture === "film-grain"
  const warm = monochrome ? light : accent
  const night = (colour: string, amount: number, blue = 0.5) =>
    mix(shade(colour, -amount), monochrome ? "#08080a" : "#101b4d", amount * blue)
  let [sky, horizon, far, near] = [sky0, horizon0, far0, near0]
  // Water takes the bluest of the land and sky colours, whatever the style calls its sky.
  const bluest = [sky0, horizon0, far0, near0].reduce((a, b) => {
    const blueness = (colour: string) => parseHex(colour)[2] - parseHex(colour)[0]
    return blueness(b) > blueness(a) ? b : a
  })
  let water = mix(bluest, far0, 0.25)
  let sand = shade(mix(horizon0, warm, 0.2), 0.3)
  let earth = mix(horizon0, warm, 0.3)
  let cloud = style.texture === "retro-grid" ? mix(horizon0, far0, 0.3) : mix(light, sky0, 0.08)
  switch (plan.timeOfDay) {
    case "dawn":
      sky = mix(sky, light, 0.2)
      horizon = mix(horizon, warm, 0.25)
      cloud = mix(cloud, warm, 0.15)
      break
    case "sunset":
      sky = mix(sky, warm, 0.22)
      horizon = mix(horizon, warm, 0.45)
      far = shade(far, -0.12)
      near = shade(near, -0.2)
      water = mix(shade(water, -0.1), warm, 0.12)
      sand = mix(sand, warm, 0.15)
      earth = shade(earth, -0.1)
      cloud = mix(cloud, warm, 0.3)
      break
    case "night":
      // A light sky darkened keeps its hue (cream goes brown); a night sky wants blue.
      sky = night(sky, 0.5, 1.2)
      horizon = mix(night(horizon, 0.5), sky, 0.4)
      far = night(far, 0.45)
      near = night(near, 0.55)
      water = night(water, 0.55)
      sand = night(sand, 0.5)
      earth = night(earth, 0.5)
      cloud = mix(cloud, sky, 0.7)
      break
    case "day":
      break
  }
  if (plan.mood === "dramatic") sky = shade(sky, -0.15)
  if (plan.motifs.includes("snow")) {
    far = mix(far, light, 0.45)
    near = mix(near, light, 0.55)
  }
  if (plan.motifs.includes("rain")) cloud = mix(cloud, shade(near, -0.5), 0.45)
  return { sky, horizon, far, near, accent, light, dark: shade(near, -0.55), warm, water, sand, earth, cloud }
}

const has = (s: Scene, motif: Motif) => s.plan.motifs.includes(motif)
const range = (s: Scene, a: number, b: number) => a + (b - a) * s.rnd()
const pick = <A>(s: Scene, items: ReadonlyArray<A>): A => items[Math.floor(s.rnd() * items.length)]!
const count = (s: Scene, base: number) => Math.max(1, Math.round(base * s.density))
const groundAt = (s: Scene, x: number) => (s.grounds[s.grounds.length - 1] ?? (() => s.horizon))(x)
const wave = (s: Scene, amplitude: number, wavelength: number) => {
  const phase = range(s, 0, Math.PI * 2)
  return (x: number) => Math.sin((x / wavelength) * Math.PI * 2 + phase) * amplitude
}

// ---- sky ----

const paintSky = (s: Scene) => {
  const { ctx, c } = s
  // Style-only flourishes draw from their own stream, so every style gets the same composition.
  const flourish: Scene = { ...s, rnd: mulberry32(Math.floor(s.rnd() * 4294967296)) }
  const gradient = ctx.createLinearGradient(0, 0, 0, s.horizon)
  gradient.addColorStop(0, c.sky)
  if (s.style.texture === "retro-grid") gradient.addColorStop(0.55, mix(c.far, c.sky, 0.3))
  else gradient.addColorStop(0.55, mix(c.sky, c.horizon, 0.35))
  gradient.addColorStop(1, c.horizon)
  ctx.fillStyle = gradient
  ctx.fillRect(0, 0, s.width, s.height)
  if (s.style.texture === "paper-layers") {
    // Paper skies are cut in rings around the light.
    const cx = s.light?.x ?? s.width / 2
    const cy = s.light?.y ?? s.horizon
    for (let i = 0; i < 5; i++) {
      const r = s.unit * (1.25 - i * 0.19)
      s.brush.mass(circle(cx, cy, r, 96), mix(c.sky, c.horizon, (i + 1) / 6))
    }
  }
  if (s.style.texture === "watercolor-wash") {
    // Wet-in-wet washes laid down the sky, each bleeding into the next.
    for (let i = 0; i < 3; i++) {
      const top = (s.horizon * i) / 3 - s.unit * 0.08
      const edge = wave(flourish, s.unit * 0.05, s.width * range(flourish, 0.6, 1.1))
      const ripple = wave(flourish, s.unit * 0.015, s.width * range(flourish, 0.15, 0.25))
      s.brush.mass(underLine(-s.unit * 0.1, s.width + s.unit * 0.1, (x) => top + edge(x) + ripple(x), top + s.horizon * 0.45, s.unit * 0.03),
        // Blending blue into peach would go grey: each wash keeps one pigment.
        [c.sky, mix(c.sky, c.light, 0.25), c.horizon][i]!)
    }
    if (s.plan.timeOfDay !== "night") {
      for (let i = 0; i < 4; i++) {
        s.brush.glow(range(flourish, 0, 1) * s.width, range(flourish, 0.1, 0.8) * s.horizon, s.unit * range(flourish, 0.12, 0.25), c.light, 0.35)
      }
    }
  }
}

const paintAbstract = (s: Scene) => {
  const { c, unit } = s
  const colours = [c.accent, c.light, mix(c.horizon, c.accent, 0.4), mix(c.far, c.light, 0.3)]
  for (let i = 0; i < 4; i++) {
    const x = range(s, 0.12, 0.88) * s.width
    const y = range(s, 0.1, 0.75) * s.horizon
    const size = unit * range(s, 0.07, 0.17)
    const colour = colours[i % colours.length]!
    const angle = range(s, 0, Math.PI * 2)
    switch (i % 4) {
      case 0:
        s.brush.mass(circle(x, y, size, 64), colour)
        break
      case 1:
        s.brush.mass(rotate(ellipse(x, y, size, size, 0, 32, 0, Math.PI), x, y, angle), colour)
        break
      case 2:
        s.brush.mass(rotate([[x, y - size], [x + size * 0.95, y + size * 0.7], [x - size * 0.95, y + size * 0.7]], x, y, angle), colour)
        break
      default:
        s.brush.lines([ellipse(x, y, size, size, 0, 48)], colour, unit * 0.018)
    }
  }
  // Confetti: dots, dashes and squiggles.
  for (let i = 0; i < count(s, 16); i++) {
    const x = range(s, 0.04, 0.96) * s.width
    const y = range(s, 0.04, 0.95) * s.horizon
    const colour = pick(s, colours)
    const k = unit * range(s, 0.012, 0.022)
    if (i % 3 === 0) s.brush.detail(circle(x, y, k * 0.5, 16), colour)
    else if (i % 3 === 1) s.brush.lines([[[x - k, y + k * 0.4], [x + k, y - k * 0.4]]], colour, unit * 0.007)
    else {
      const squiggle: Array<Pt> = []
      for (let t = 0; t <= 12; t++) squiggle.push([x + (t - 6) * k * 0.25, y + Math.sin(t * 1.3) * k * 0.4])
      s.brush.lines([squiggle], colour, unit * 0.006)
    }
  }
}

const paintStars = (s: Scene) => {
  const { c, unit } = s
  for (let i = 0; i < count(s, 70); i++) {
    const y = range(s, 0, 0.85) ** 1.4 * s.horizon
    s.brush.detail(circle(range(s, 0, s.width), y, unit * range(s, 0.0015, 0.0045), 8), c.light, range(s, 0.4, 1))
  }
  for (let i = 0; i < count(s, 5); i++) {
    const x = range(s, 0.05, 0.95) * s.width
    const y = range(s, 0.05, 0.6) * s.horizon
    const k = unit * range(s, 0.012, 0.022)
    const sparkle: Array<Pt> = []
    for (let j = 0; j < 8; j++) {
      const a = (j * Math.PI) / 4
      const r = j % 2 === 0 ? k : k * 0.22
      sparkle.push([x + Math.cos(a) * r, y + Math.sin(a) * r])
    }
    s.brush.glow(x, y, k * 2, c.light, 0.35)
    s.brush.detail(sparkle, c.light)
  }
}

/** Coloured haze and a shooting star: deep space is not just black. */
const paintNebula = (s: Scene) => {
  const { c, unit } = s
  for (let i = 0; i < 5; i++) {
    s.brush.glow(range(s, 0, 1) * s.width, range(s, 0.05, 0.9) * s.horizon, unit * range(s, 0.3, 0.6),
      pick(s, [c.accent, c.horizon, c.far]), 0.22)
  }
  const x = range(s, 0.1, 0.5) * s.width
  const y = range(s, 0.05, 0.3) * s.horizon
  s.brush.lines([[[x, y], [x + unit * 0.22, y + unit * 0.09]]], c.light, unit * 0.004, 0.7)
  s.brush.glow(x + unit * 0.22, y + unit * 0.09, unit * 0.03, c.light, 0.8)
}

const paintNetwork = (s: Scene) => {
  const { c, unit } = s
  const nodes: Array<Pt> = []
  for (let i = 0; i < 16; i++) nodes.push([range(s, 0.06, 0.94) * s.width, range(s, 0.06, 0.8) * s.horizon])
  const links: Array<Poly> = []
  nodes.forEach((a, i) => {
    const nearest = nodes
      .map((b, j) => ({ j, d: Math.hypot(a[0] - b[0], a[1] - b[1]) }))
      .filter((n) => n.j !== i)
      .sort((p, q) => p.d - q.d)
      .slice(0, 2)
    for (const n of nearest) links.push([a, nodes[n.j]!])
  })
  s.brush.lines(links, c.light, unit * 0.003, 0.55)
  for (const [x, y] of nodes) {
    s.brush.glow(x, y, unit * 0.03, c.accent, 0.5)
    s.brush.detail(circle(x, y, unit * 0.008, 16), c.light)
  }
}

const paintMusic = (s: Scene) => {
  const { c, unit } = s
  const y0 = s.horizon * range(s, 0.3, 0.45)
  const gap = unit * 0.022
  const bend = wave(s, unit * 0.05, s.width * 0.9)
  const staff: Array<Poly> = []
  for (let k = 0; k < 5; k++) {
    const line: Array<Pt> = []
    for (let x = 0; x <= s.width; x += unit * 0.02) line.push([x, y0 + k * gap + bend(x)])
    staff.push(line)
  }
  s.brush.lines(staff, c.light, unit * 0.003, 0.6)
  for (let i = 0; i < 6; i++) {
    const x = s.width * (0.1 + i * 0.15 + range(s, -0.03, 0.03))
    const y = y0 + bend(x) + gap * Math.floor(range(s, -3, 7))
    const head = unit * 0.02
    s.brush.detail(ellipse(x, y, head, head * 0.7, -0.4, 20), c.light)
    const top: Pt = [x + head * 0.9, y - unit * 0.09]
    s.brush.lines([[[x + head * 0.9, y], top], [top, [top[0] + head * 1.2, top[1] + head * 1.6]]], c.light, unit * 0.005)
  }
}

// ---- lights in the sky ----

const paintSun = (s: Scene, sun: LightSource) => {
  const { ctx, c } = s
  s.brush.glow(sun.x, sun.y, sun.r * 3.4, c.warm, 0.55)
  if (s.style.texture === "retro-grid") {
    // The synthwave sun: a gradient disc, sliced by widening gaps towards its base.
    ctx.save()
    ctx.beginPath()
    ctx.rect(sun.x - sun.r, sun.y - sun.r, sun.r * 2, sun.r * 1.05)
    let y = sun.y + sun.r * 0.05
    for (let k = 0; y < sun.y + sun.r; k++) {
      const gap = sun.r * (0.04 + k * 0.035)
      const band = sun.r * 0.16
      ctx.rect(sun.x - sun.r, y + gap, sun.r * 2, band)
      y += gap + band
    }
    ctx.clip()
    const gradient = ctx.createLinearGradient(0, sun.y - sun.r, 0, sun.y + sun.r)
    gradient.addColorStop(0, c.accent)
    gradient.addColorStop(1, c.horizon)
    trace(ctx, circle(sun.x, sun.y, sun.r, 64))
    ctx.fillStyle = gradient
    ctx.fill()
    ctx.restore()
    return
  }
  const colour = s.plan.timeOfDay === "day" ? mix(c.warm, c.light, 0.45) : mix(c.warm, c.light, 0.15)
  s.brush.mass(circle(sun.x, sun.y, sun.r, 64), colour)
}

const paintMoon = (s: Scene, moon: LightSource) => {
  const { c } = s
  s.brush.glow(moon.x, moon.y, moon.r * 4, c.light, 0.35)
  s.brush.mass(circle(moon.x, moon.y, moon.r, 64), mix(c.light, c.horizon, 0.12))
  for (let i = 0; i < 4; i++) {
    const a = range(s, 0, Math.PI * 2)
    const d = moon.r * range(s, 0.15, 0.6)
    s.brush.detail(circle(moon.x + Math.cos(a) * d, moon.y + Math.sin(a) * d, moon.r * range(s, 0.08, 0.2), 20),
      shade(c.light, -0.12), 0.6)
  }
}

const paintPlanets = (s: Scene) => {
  const { ctx, c, unit } = s
  const x = s.width * range(s, 0.55, 0.75)
  const y = s.horizon * range(s, 0.22, 0.35)
  const r = unit * range(s, 0.13, 0.17)
  const tilt = range(s, -0.45, -0.15)
  const ringColour = mix(c.light, c.accent, 0.3)
  const ring = (from: number, to: number) => ellipse(x, y, r * 1.9, r * 0.45, tilt, 48, from, to)
  s.brush.glow(x, y, r * 2.2, c.accent, 0.25)
  s.brush.lines([ring(Math.PI, Math.PI * 2)], ringColour, unit * 0.022)
  const body = mix(c.accent, c.far, 0.35)
  s.brush.mass(circle(x, y, r, 72), body)
  ctx.save()
  trace(ctx, circle(x, y, r, 72))
  ctx.clip()
  for (let k = -2; k <= 2; k++) {
    s.brush.detail(rotate(rect(x - r, y + k * r * 0.36, r * 2, r * 0.14), x, y, tilt), shade(body, k % 2 === 0 ? 0.18 : -0.15), 0.7)
  }
  ctx.restore()
  s.brush.lines([ring(0, Math.PI)], ringColour, unit * 0.022)
  const mx = s.width * range(s, 0.15, 0.35)
  const my = s.horizon * range(s, 0.5, 0.7)
  const mr = unit * range(s, 0.035, 0.055)
  s.brush.mass(circle(mx, my, mr, 40), mix(c.horizon, c.light, 0.3))
  s.brush.detail(circle(mx + mr * 0.3, my - mr * 0.2, mr * 0.25, 16), shade(mix(c.horizon, c.light, 0.3), -0.15))
}

const paintClouds = (s: Scene) => {
  const { c, unit } = s
  const rainy = has(s, "rain")
  const towering = s.style.texture === "cel-shading" ? 1.6 : 1
  const busySky = has(s, "hearts") || has(s, "music") || has(s, "abstract") || has(s, "rising-chart")
  const n = has(s, "clouds") ? count(s, rainy ? 5 : 4) : busySky ? 1 : count(s, 2.5)
  // One cloud per slot across the sky, far (small, high) to near (large, low), so they never pile up.
  const slots = Array.from({ length: n }, (_, i) => i).sort(() => s.rnd() - 0.5)
  slots.forEach((slot, i) => {
    const depth = i / Math.max(1, n - 1)
    const width = unit * range(s, 0.28, 0.45) * (rainy ? 1.6 : 1) * (0.65 + depth * 0.6)
    const cx = s.width * ((slot + 0.5) / n + range(s, -0.3, 0.3) / n)
    const baseY = s.horizon * (rainy ? range(s, 0.1, 0.4) : 0.15 + 0.6 * depth * range(s, 0.7, 1))
    const bumps = Array.from({ length: 5 }, (_, k) => {
      const middle = 1 - Math.abs(k - 2) / 2.5
      const r = width * range(s, 0.13, 0.2) * (1 + middle * (towering - 0.6))
      return { x: cx - width / 2 + (width * (k + 0.5)) / 5, y: baseY - r * 0.3, r }
    })
    s.brush.mass(cloudOutline(bumps, baseY, unit * 0.008), shade(c.cloud, (depth - 0.5) * 0.1))
  })
}

const paintBirds = (s: Scene) => {
  const { unit } = s
  const cx = range(s, 0.25, 0.75) * s.width
  const cy = range(s, 0.2, 0.5) * s.horizon
  const birds: Array<Poly> = []
  for (let i = 0; i < count(s, 5); i++) {
    const x = cx + range(s, -0.18, 0.18) * s.width
    const y = cy + range(s, -0.08, 0.08) * s.horizon
    const k = unit * range(s, 0.012, 0.024)
    birds.push([[x - k, y - k * 0.3], [x - k * 0.45, y - k * 0.45], [x, y], [x + k * 0.45, y - k * 0.45], [x + k, y - k * 0.3]])
  }
  s.brush.lines(birds, s.plan.timeOfDay === "night" ? s.c.light : s.c.dark, unit * 0.004)
}

// ---- far land ----

/** A jagged ridge: peaks and valleys across the width, roughened by midpoint displacement. */
const ridgeLine = (s: Scene, peaks: number, low: number, high: number) => {
  const tops: Array<Pt> = []
  let points: Array<Pt> = []
  const step = (s.width * 1.3) / (peaks * 2)
  for (let i = 0; i <= peaks * 2; i++) {
    const x = -0.15 * s.width + i * step + range(s, -0.25, 0.25) * step
    const peak = i % 2 === 1
    const y = s.horizon - s.unit * (peak ? range(s, low, high) : range(s, 0.02, low * 0.5))
    points.push([x, y])
    if (peak) tops.push([x, y])
  }
  let roughness = s.unit * 0.05
  for (let level = 0; level < 3; level++) {
    const next: Array<Pt> = []
    points.forEach((a, i) => {
      next.push(a)
      const b = points[i + 1]
      if (b !== undefined) next.push([(a[0] + b[0]) / 2 + range(s, -0.2, 0.2) * roughness, (a[1] + b[1]) / 2 + range(s, -1, 1) * roughness])
    })
    points = next
    roughness /= 2
  }
  return { points, tops }
}

const paintPeaks = (s: Scene) => {
  const { ctx, c, unit } = s
  const bottom = s.horizon + unit * 0.2
  const ranges = [
    { colour: mix(c.far, c.sky, 0.45), low: 0.3, high: 0.5 },
    { colour: c.far, low: 0.16, high: 0.32 }
  ]
  for (const { colour, low, high } of ranges) {
    const { points, tops } = ridgeLine(s, 3, low, high)
    const mountain: Array<Pt> = [...points, [s.width * 1.2, bottom], [-s.width * 0.2, bottom]]
    s.brush.mass(mountain, colour)
    ctx.save()
    trace(ctx, mountain)
    ctx.clip()
    for (const [px, py] of tops) {
      const height = s.horizon - py
      // The face away from the light, then a snow cap on the tallest.
      s.brush.detail([[px, py], [px + height * 0.75, s.horizon + unit * 0.05], [px + height * 0.1, s.horizon + unit * 0.05]],
        shade(colour, -0.14), 0.9)
      if (height > unit * 0.24) {
        const depth = height * range(s, 0.22, 0.3)
        const cap: Array<Pt> = [[px - height, py - unit * 0.05], [px + height, py - unit * 0.05]]
        for (let k = 0; k <= 6; k++) cap.push([px + height * (0.7 - (k * 1.4) / 6), py + depth * (k % 2 === 0 ? 1 : 0.6)])
        s.brush.detail(cap, mix(c.light, colour, 0.08))
      }
    }
    ctx.restore()
  }
}

const paintSkyline = (s: Scene) => {
  const { c, unit } = s
  const night = s.plan.timeOfDay === "night" || s.plan.timeOfDay === "sunset"
  const rows = [
    { colour: mix(c.far, c.sky, 0.4), low: 0.18, high: 0.42, narrow: 0.07, wide: 0.12 },
    { colour: mix(c.far, c.dark, 0.55), low: 0.08, high: 0.3, narrow: 0.09, wide: 0.16 }
  ]
  const base = s.horizon + unit * 0.02
  for (const row of rows) {
    let x = -range(s, 0, 0.05) * s.width
    while (x < s.width) {
      const bw = unit * range(s, row.narrow, row.wide)
      const bh = unit * range(s, row.low, row.high)
      const top = base - bh
      const roof = s.rnd()
      if (roof < 0.25) s.brush.mass(rect(x + bw * 0.2, top - bh * 0.08, bw * 0.6, bh * 0.1), row.colour)
      else if (roof < 0.4) {
        s.brush.mass([[x + bw * 0.2, top], [x + bw * 0.5, top - bh * 0.18], [x + bw * 0.8, top]], row.colour)
        s.brush.lines([[[x + bw * 0.5, top - bh * 0.18], [x + bw * 0.5, top - bh * 0.3]]], row.colour, unit * 0.004)
      }
      s.brush.mass(rect(x, top, bw, bh + unit * 0.05), row.colour)
      const cols = Math.max(1, Math.floor(bw / (unit * 0.03)))
      const floors = Math.floor(bh / (unit * 0.04))
      const cell = bw / cols
      for (let f = 0; f < floors - 1; f++) {
        for (let k = 0; k < cols; k++) {
          const lit = night ? s.rnd() < 0.45 : s.rnd() < 0.15
          const colour = lit ? (night ? mix(c.warm, c.light, 0.4) : shade(row.colour, 0.25)) : shade(row.colour, -0.18)
          s.brush.detail(rect(x + k * cell + cell * 0.25, top + unit * 0.025 + f * unit * 0.04, cell * 0.5, unit * 0.02), colour, lit ? 0.95 : 0.6)
        }
      }
      x += bw + unit * range(s, 0, 0.015)
    }
  }
  s.grounds.push(() => base)
}

// ---- ground ----

const paintGround = (s: Scene) => {
  const { ctx, c } = s
  const soil = has(s, "desert") ? c.earth : c.near
  const gradient = ctx.createLinearGradient(0, s.horizon, 0, s.height)
  gradient.addColorStop(0, mix(soil, c.far, 0.3))
  gradient.addColorStop(1, shade(soil, -0.15))
  ctx.fillStyle = gradient
  ctx.fillRect(0, s.horizon, s.width, s.height - s.horizon)
}

/** A city street in front of the skyline: pavement, a kerb, lamps and their reflections. */
const paintStreet = (s: Scene) => {
  const { ctx, c, unit } = s
  const asphalt = mix(c.dark, c.far, 0.2)
  const gradient = ctx.createLinearGradient(0, s.horizon, 0, s.height)
  gradient.addColorStop(0, shade(asphalt, 0.12))
  gradient.addColorStop(1, shade(asphalt, -0.2))
  ctx.fillStyle = gradient
  ctx.fillRect(0, s.horizon + unit * 0.02, s.width, s.height)
  const kerb = s.horizon + (s.height - s.horizon) * 0.22
  s.brush.mass(rect(-unit * 0.05, s.horizon + unit * 0.02, s.width + unit * 0.1, kerb - s.horizon - unit * 0.02), mix(asphalt, c.far, 0.4))
  const lane = s.horizon + (s.height - s.horizon) * 0.6
  const dashes: Array<Poly> = []
  for (let x = range(s, -0.1, 0) * s.width; x < s.width; x += unit * 0.16) dashes.push([[x, lane], [x + unit * 0.08, lane]])
  s.brush.lines(dashes, mix(c.warm, c.light, 0.5), unit * 0.012, 0.85)
  const lit = s.plan.timeOfDay === "night" || s.plan.timeOfDay === "sunset"
  const lamp = mix(c.warm, c.light, 0.6)
  for (let x = s.width * range(s, 0.08, 0.2); x < s.width; x += s.width * 0.36) {
    const top = kerb - unit * 0.3
    if (lit) {
      s.brush.glow(x, top, unit * 0.16, c.warm, 0.5)
      ctx.save()
      ctx.translate(x, kerb + (s.height - kerb) * 0.45)
      ctx.scale(0.25, 1)
      s.brush.glow(0, 0, (s.height - kerb) * 0.5, c.warm, 0.3)
      ctx.restore()
    }
    s.brush.lines([[[x, kerb], [x, top], [x + unit * 0.05, top]]], c.dark, unit * 0.01)
    s.brush.detail(roundedRect(x + unit * 0.03, top - unit * 0.005, unit * 0.05, unit * 0.022, unit * 0.008), lit ? lamp : shade(lamp, -0.3))
  }
  s.grounds.push(() => kerb)
}

const paintHills = (s: Scene) => {
  const { c, unit } = s
  const layers = s.style.texture === "paper-layers" ? 4 : 3
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1)
    const baseY = s.horizon + (s.height - s.horizon) * (0.02 + 0.3 * t ** 1.3)
    const a = wave(s, unit * range(s, 0.03, 0.06), s.width * range(s, 0.7, 1.3))
    const b = wave(s, unit * range(s, 0.01, 0.025), s.width * range(s, 0.25, 0.45))
    const top = (x: number) => baseY + a(x) + b(x) - unit * 0.04
    s.brush.mass(underLine(-unit * 0.05, s.width + unit * 0.05, top, s.height + unit * 0.1, unit * 0.02),
      mix(mix(c.far, c.sky, 0.2), c.near, t))
    s.grounds.push(top)
  }
  const near = s.grounds[s.grounds.length - 1]!
  const busy = ["crowd", "food", "fire", "rising-chart", "flowers"].some((m) => has(s, m as Motif))
  if (!busy) {
    // A path winding away from the viewer over the nearest hill, narrowing with distance.
    const far = near(s.width / 2) + unit * 0.01
    const bottom = s.height + unit * 0.02
    const swing = range(s, 0.12, 0.22) * s.width * (s.rnd() < 0.5 ? -1 : 1)
    const centre = s.width * range(s, 0.4, 0.6)
    const left: Array<Pt> = []
    const right: Array<Pt> = []
    for (let i = 0; i <= 30; i++) {
      const p = i / 30
      const y = far + (bottom - far) * p ** 1.6
      const x = centre + swing * Math.sin(p * Math.PI * 1.4) * p
      const half = unit * (0.004 + 0.12 * p ** 1.8)
      left.push([x - half, y])
      right.unshift([x + half, y])
    }
    s.brush.mass([...left, ...right], has(s, "snow") ? shade(c.near, 0.25) : mix(c.sand, c.near, 0.3))
  }
  const tufts: Array<Poly> = []
  for (let i = 0; i < count(s, 30); i++) {
    const x = range(s, 0, 1) * s.width
    const y = near(x) + (s.height - near(x)) * range(s, 0.1, 1)
    const k = unit * range(s, 0.01, 0.02) * (0.6 + (y - s.horizon) / (s.height - s.horizon))
    tufts.push([[x - k, y - k * 1.4], [x, y], [x + k * 0.2, y - k * 1.9]], [[x, y], [x + k, y - k * 1.3]])
  }
  s.brush.lines(tufts, shade(c.near, 0.18), unit * 0.004, 0.8)
}

const paintDesert = (s: Scene) => {
  const { c, unit } = s
  for (let i = 0; i < 3; i++) {
    const t = i / 2
    const baseY = s.horizon + (s.height - s.horizon) * (0.05 + 0.35 * t)
    const a = wave(s, unit * range(s, 0.04, 0.08), s.width * range(s, 0.8, 1.4))
    const top = (x: number) => baseY + a(x) - unit * 0.03
    s.brush.mass(underLine(-unit * 0.05, s.width + unit * 0.05, top, s.height + unit * 0.1, unit * 0.02),
      shade(mix(c.earth, c.near, t * 0.25), -t * 0.15))
    s.grounds.push(top)
  }
  const ground = s.grounds[s.grounds.length - 1]!
  for (let i = 0; i < 2; i++) {
    const x = s.width * (i === 0 ? range(s, 0.1, 0.35) : range(s, 0.65, 0.9))
    paintCactus(s, x, ground(x) + unit * 0.04, unit * range(s, 0.16, 0.24))
  }
}

const paintCactus = (s: Scene, x: number, y: number, height: number) => {
  const w = height * 0.16
  const colour = mix(s.c.near, s.c.far, 0.2)
  s.brush.mass(roundedRect(x - w * 2, y - height * 0.42, w * 2, w * 0.7, w * 0.35), colour)
  s.brush.mass(roundedRect(x - w * 2, y - height * 0.72, w * 0.7, height * 0.34, w * 0.35), colour)
  s.brush.mass(roundedRect(x, y - height * 0.58, w * 1.7, w * 0.7, w * 0.35), colour)
  s.brush.mass(roundedRect(x + w, y - height * 0.85, w * 0.7, height * 0.31, w * 0.35), colour)
  s.brush.mass(roundedRect(x - w / 2, y - height, w, height, w / 2), colour)
}

const paintSea = (s: Scene) => {
  const { c, unit } = s
  const shoreline = wave(s, unit * 0.03, s.width * 1.2)
  const shore = (x: number) => s.height * 0.87 + (x / s.width) * s.height * 0.05 + shoreline(x)
  // A headland on one side gives the horizon depth.
  const side = s.rnd() < 0.5 ? 0 : 1
  const reach = s.width * range(s, 0.25, 0.4)
  const rise = unit * range(s, 0.05, 0.09)
  s.brush.mass(underLine(side === 0 ? -unit * 0.05 : s.width - reach, side === 0 ? reach : s.width + unit * 0.05, (x) => {
    const t = side === 0 ? 1 - x / reach : (x - (s.width - reach)) / reach
    return s.horizon - rise * Math.sin(Math.min(1, Math.max(0, t)) * Math.PI * 0.5) ** 0.7
  }, s.horizon + unit * 0.05, unit * 0.01), mix(c.far, c.sky, 0.35))
  // The sea in bands, lighter far away, each with a rolling edge.
  const bands = 5
  for (let k = 0; k < bands; k++) {
    const t = k / bands
    const top = s.horizon + (s.height * 0.9 - s.horizon) * t ** 1.5
    const swell = wave(s, unit * (0.004 + 0.012 * t), s.width * range(s, 0.2, 0.35) * (0.5 + t))
    s.brush.mass(underLine(-unit * 0.05, s.width + unit * 0.05, (x) => top + (k === 0 ? 0 : swell(x)), s.height + unit * 0.1, unit * 0.01),
      k === 0 ? mix(c.water, c.horizon, 0.35) : shade(c.water, 0.1 - t * 0.3))
  }
  const crests: Array<Poly> = []
  for (let i = 0; i < count(s, 26); i++) {
    const t = range(s, 0.05, 1) ** 1.6
    const y = s.horizon + (s.height * 0.88 - s.horizon) * t
    const x = range(s, 0, 1) * s.width
    const half = unit * (0.015 + 0.05 * t) * range(s, 0.6, 1.2)
    const crest: Array<Pt> = []
    for (let k = 0; k <= 8; k++) crest.push([x - half + (half * 2 * k) / 8, y - Math.sin((k / 8) * Math.PI) * half * 0.25])
    crests.push(crest)
  }
  s.brush.lines(crests, mix(c.light, c.water, 0.25), unit * 0.004, 0.6)
  if (s.light !== undefined) {
    // The light's path on the water: broken strokes, wider nearer the viewer.
    const path: Array<Poly> = []
    for (let k = 0; k < 14; k++) {
      const t = (k / 14) ** 1.4
      const y = s.horizon + unit * 0.01 + (s.height * 0.85 - s.horizon) * t
      const half = s.light.r * (0.7 + 0.5 * t) * range(s, 0.3, 1)
      const x = s.light.x + range(s, -0.3, 0.3) * s.light.r * (1 + t)
      path.push([[x - half, y], [x + half, y]])
    }
    s.brush.lines(path, mix(c.warm, c.light, 0.5), unit * 0.006, 0.55)
  }
  s.brush.mass(underLine(-unit * 0.05, s.width + unit * 0.05, shore, s.height + unit * 0.1, unit * 0.02), c.sand)
  const foam: Array<Pt> = []
  for (let x = 0; x <= s.width; x += unit * 0.015) foam.push([x, shore(x) - unit * 0.008])
  s.brush.lines([foam], c.light, unit * 0.006, 0.85)
  s.grounds.push(shore)
}

const paintRoad = (s: Scene) => {
  const { c, unit } = s
  const vx = s.width * range(s, 0.42, 0.58)
  const left = (t: number) => vx + (s.width * 0.02 - vx) * t
  const right = (t: number) => vx + (s.width * 0.98 - vx) * t
  const yAt = (t: number) => s.horizon + (s.height - s.horizon) * t
  s.brush.mass([[vx - unit * 0.005, s.horizon], [vx + unit * 0.005, s.horizon], [right(1), s.height], [left(1), s.height]],
    mix(c.dark, c.far, 0.25))
  s.brush.lines([[[vx, s.horizon], [left(1) + unit * 0.03, s.height]], [[vx, s.horizon], [right(1) - unit * 0.03, s.height]]],
    c.light, unit * 0.006, 0.7)
  for (let k = 0; k < 9; k++) {
    const t0 = (k / 9) ** 2
    const t1 = ((k + 0.5) / 9) ** 2
    const w0 = unit * 0.004 + unit * 0.02 * t0
    const w1 = unit * 0.004 + unit * 0.02 * t1
    s.brush.detail([[vx - w0, yAt(t0)], [vx + w0, yAt(t0)], [vx + w1, yAt(t1)], [vx - w1, yAt(t1)]], mix(c.warm, c.light, 0.5))
  }
  s.grounds.push(() => s.height)
  // A car driving away, seen from behind.
  const y = s.height * 0.87
  const x = vx + (y - s.horizon) / (s.height - s.horizon) * (s.width * 0.7 - vx)
  const w = unit * 0.3
  const body = mix(c.far, c.light, 0.2)
  s.brush.glow(x, y, w * 1.2, c.dark, 0.5)
  s.brush.mass([[x - w * 0.34, y - w * 0.42], [x + w * 0.34, y - w * 0.42], [x + w * 0.42, y - w * 0.2], [x - w * 0.42, y - w * 0.2]], body)
  s.brush.detail([[x - w * 0.29, y - w * 0.38], [x + w * 0.29, y - w * 0.38], [x + w * 0.35, y - w * 0.23], [x - w * 0.35, y - w * 0.23]], c.dark, 0.85)
  s.brush.detail(rect(x - w * 0.47, y + w * 0.02, w * 0.14, w * 0.16), c.dark)
  s.brush.detail(rect(x + w * 0.33, y + w * 0.02, w * 0.14, w * 0.16), c.dark)
  s.brush.mass(roundedRect(x - w / 2, y - w * 0.22, w, w * 0.28, w * 0.06), body)
  for (const side of [-1, 1]) {
    const lx = x + side * w * 0.36
    s.brush.glow(lx, y - w * 0.1, w * 0.2, c.accent, 0.6)
    s.brush.detail(roundedRect(lx - w * 0.07, y - w * 0.14, w * 0.14, w * 0.07, w * 0.02), c.accent)
  }
  s.brush.detail(rect(x - w * 0.12, y - w * 0.05, w * 0.24, w * 0.07), shade(body, 0.4))
}

const paintAlienSurface = (s: Scene) => {
  const { c, unit } = s
  const radius = s.width * 1.6
  const cx = s.width / 2
  const cy = s.horizon + radius
  const colour = mix(c.far, c.accent, 0.2)
  s.brush.glow(cx, s.horizon, s.width * 0.8, c.horizon, 0.35)
  s.brush.mass(circle(cx, cy, radius, 360), colour)
  for (let i = 0; i < 7; i++) {
    const x = range(s, 0.05, 0.95) * s.width
    const y = s.horizon + (s.height - s.horizon) * range(s, 0.15, 0.9)
    const r = unit * range(s, 0.02, 0.07) * (0.5 + (y - s.horizon) / (s.height - s.horizon))
    s.brush.detail(ellipse(x, y, r, r * 0.4, 0, 28), shade(colour, -0.2), 0.8)
    s.brush.detail(ellipse(x, y - r * 0.12, r * 0.8, r * 0.28, 0, 28), shade(colour, 0.12), 0.6)
  }
  s.grounds.push((x) => cy - Math.sqrt(Math.max(0, radius * radius - (x - cx) ** 2)))
}

const paintGrid = (s: Scene) => {
  const { ctx, c, unit } = s
  const lines: Array<Poly> = []
  for (let k = 1; k <= 14; k++) {
    const y = s.horizon + (s.height - s.horizon) * (k / 14) ** 2.2
    lines.push([[0, y], [s.width, y]])
  }
  const vx = s.width / 2
  for (let k = -12; k <= 12; k++) lines.push([[vx + k * unit * 0.04, s.horizon], [vx + k * unit * 0.5, s.height]])
  ctx.save()
  ctx.shadowColor = c.light
  ctx.shadowBlur = unit * 0.015
  s.brush.lines(lines, c.light, unit * 0.0035, 0.75)
  s.brush.lines([[[0, s.horizon], [s.width, s.horizon]]], c.horizon, unit * 0.006)
  ctx.restore()
}

// ---- things standing on the ground ----

const paintTree = (s: Scene, x: number, y: number, height: number, kind: "pine" | "round" | "palm", colour: string) => {
  const { c } = s
  const trunk = mix(c.dark, c.accent, 0.15)
  if (kind === "pine") {
    s.brush.detail(rect(x - height * 0.035, y - height * 0.2, height * 0.07, height * 0.22), trunk)
    // Three stacked tiers: each steps in to a notch where the next one starts.
    const right: Array<Pt> = []
    for (let i = 1; i <= 3; i++) {
      const ty = y - height + (height * 0.85 * i) / 3
      const half = height * (0.12 + 0.1 * i)
      right.push([x + half, ty])
      if (i < 3) right.push([x + half * 0.45, ty])
    }
    const left = right.map(([px, py]) => [2 * x - px, py] as const).reverse()
    s.brush.mass([[x, y - height], ...right, ...left], colour)
    if (has(s, "snow")) {
      s.brush.detail([[x, y - height], [x + height * 0.1, y - height * 0.8], [x - height * 0.1, y - height * 0.8]], c.light, 0.9)
    }
    return
  }
  if (kind === "round") {
    s.brush.mass(rect(x - height * 0.04, y - height * 0.5, height * 0.08, height * 0.52), trunk)
    const r = height * 0.3
    const cy = y - height + r
    const bumps = 5 + Math.floor(s.rnd() * 3)
    const phase = range(s, 0, Math.PI)
    const canopy: Array<Pt> = []
    for (let i = 0; i < 60; i++) {
      const a = (i / 60) * Math.PI * 2
      const rr = r * (1 + 0.08 * Math.sin(a * bumps + phase))
      canopy.push([x + Math.cos(a) * rr, cy + Math.sin(a) * rr * 1.05])
    }
    s.brush.mass(canopy, colour)
    return
  }
  // A palm: a leaning trunk and drooping fronds.
  const lean = range(s, -0.25, 0.25) * height
  const topX = x + lean
  const topY = y - height
  const trunkPoly: Array<Pt> = []
  for (let i = 0; i <= 10; i++) {
    const t = i / 10
    trunkPoly.push([x + lean * t * t + height * 0.03 * (1 - t * 0.5), y - height * t])
  }
  for (let i = 10; i >= 0; i--) {
    const t = i / 10
    trunkPoly.push([x + lean * t * t - height * 0.03 * (1 - t * 0.5), y - height * t])
  }
  s.brush.mass(trunkPoly, trunk)
  for (let k = 0; k < 6; k++) {
    const a = -Math.PI / 2 + (k - 2.5) * 0.55
    const len = height * range(s, 0.35, 0.45)
    const leaf = rotate(ellipse(topX + len / 2, topY, len / 2, height * 0.05, 0, 20), topX, topY, a + Math.sign(a + Math.PI / 2) * 0.9)
    s.brush.mass(leaf.map(([px, py]) => [px, py + ((px - topX) / len) ** 2 * height * 0.12]), colour)
  }
}

const paintTrees = (s: Scene) => {
  const { c, unit } = s
  const tropical = has(s, "waves") || has(s, "desert")
  const kinds = tropical ? (["palm"] as const) : has(s, "snow") || has(s, "peaks") ? (["pine"] as const) : (["pine", "round"] as const)
  const back = s.grounds.length > 1 ? s.grounds[s.grounds.length - 2]! : undefined
  if (back !== undefined && !tropical) {
    for (let i = 0; i < count(s, 9); i++) {
      const x = range(s, 0, 1) * s.width
      paintTree(s, x, back(x) + unit * 0.02, unit * range(s, 0.06, 0.1), pick(s, kinds), mix(c.near, c.far, 0.55))
    }
  }
  const n = count(s, tropical ? 2 : 5)
  for (let i = 0; i < n; i++) {
    const x = s.width * ((i + 0.5) / n + range(s, -0.4, 0.4) / n)
    const colour = shade(mix(c.near, c.far, 0.15), range(s, -0.1, 0.08))
    paintTree(s, x, groundAt(s, x) + unit * 0.03, unit * range(s, tropical ? 0.35 : 0.18, tropical ? 0.5 : 0.32), pick(s, kinds), colour)
  }
}

const paintBoat = (s: Scene) => {
  const { c, unit } = s
  const x = s.width * range(s, 0.2, 0.75)
  const y = s.horizon + (s.height - s.horizon) * range(s, 0.12, 0.28)
  const k = unit * range(s, 0.14, 0.2)
  s.brush.mass([[x - k * 0.55, y - k * 0.12], [x + k * 0.6, y - k * 0.12], [x + k * 0.42, y + k * 0.05], [x - k * 0.42, y + k * 0.05]], c.dark)
  s.brush.lines([[[x, y - k * 0.12], [x, y - k * 1.05]]], c.dark, unit * 0.005)
  s.brush.mass([[x + k * 0.03, y - k * 1.0], [x + k * 0.5, y - k * 0.2], [x + k * 0.03, y - k * 0.2]], c.light)
  s.brush.mass([[x - k * 0.03, y - k * 0.85], [x - k * 0.03, y - k * 0.2], [x - k * 0.4, y - k * 0.2]], mix(c.light, c.accent, 0.3))
}

const paintFlowers = (s: Scene) => {
  const { c, unit } = s
  const stems: Array<Poly> = []
  const heads: Array<{ x: number; y: number; r: number; colour: string }> = []
  for (let i = 0; i < count(s, 14); i++) {
    const x = range(s, 0.02, 0.98) * s.width
    const base = Math.max(groundAt(s, x), s.height * 0.8) + unit * range(s, 0.04, 0.2)
    const top = base - unit * range(s, 0.06, 0.16)
    stems.push([[x, base], [x + range(s, -0.01, 0.01) * unit, top]])
    heads.push({ x, y: top, r: unit * range(s, 0.014, 0.026), colour: pick(s, [c.accent, c.light, mix(c.accent, c.horizon, 0.5)]) })
  }
  s.brush.lines(stems, shade(c.near, 0.1), unit * 0.005)
  for (const h of heads) {
    for (let p = 0; p < 5; p++) {
      const a = (p / 5) * Math.PI * 2
      s.brush.detail(circle(h.x + Math.cos(a) * h.r, h.y + Math.sin(a) * h.r, h.r * 0.7, 14), h.colour)
    }
    s.brush.detail(circle(h.x, h.y, h.r * 0.55, 14), mix(c.warm, c.light, 0.5))
  }
}

const paintCrowd = (s: Scene) => {
  const { c, unit } = s
  const colour = mix(c.dark, c.far, 0.12)
  const n = count(s, 9)
  const behindTable = has(s, "food")
  for (let i = 0; i < n; i++) {
    const x = s.width * ((i + 0.5) / n + range(s, -0.3, 0.3) / n)
    const size = unit * range(s, 0.13, 0.19) * (behindTable ? 0.8 : 1)
    const top = (behindTable ? s.height * 0.86 : s.height) - size * range(s, 1.3, 1.7)
    const shoulders = size * 0.42
    if (s.rnd() < (s.plan.mood === "lively" ? 0.4 : 0.15)) {
      const side = s.rnd() < 0.5 ? -1 : 1
      const hand: Pt = [x + side * size * 0.55, top - size * 0.55]
      s.brush.lines([[[x + side * shoulders * 0.8, top + size * 0.55], hand]], colour, size * 0.16)
    }
    s.brush.mass([
      ...ellipse(x, top + size * 0.62, shoulders, size * 0.25, 0, 12, Math.PI, Math.PI * 2),
      [x + shoulders, s.height + unit * 0.05], [x - shoulders, s.height + unit * 0.05]
    ], colour)
    s.brush.mass(ellipse(x, top + size * 0.2, size * 0.17, size * 0.21, 0, 28), colour)
  }
}

const paintFood = (s: Scene) => {
  const { c, unit } = s
  const table = s.height * 0.84
  const wood = mix(c.earth, c.dark, 0.55)
  s.brush.mass(rect(-unit * 0.05, table, s.width + unit * 0.1, s.height - table + unit * 0.05), wood)
  s.brush.detail(rect(0, table, s.width, unit * 0.012), shade(wood, 0.25))
  const grain: Array<Poly> = []
  for (let i = 0; i < 7; i++) {
    const y = table + (s.height - table) * range(s, 0.15, 0.95)
    const x = range(s, -0.2, 0.6) * s.width
    grain.push([[x, y], [x + s.width * range(s, 0.2, 0.6), y + unit * range(s, -0.005, 0.005)]])
  }
  s.brush.lines(grain, shade(wood, -0.25), unit * 0.004, 0.7)
  // A bowl with steam.
  const bx = s.width * 0.36
  const br = unit * 0.17
  s.brush.mass(ellipse(bx, table - br * 0.8, br, br * 0.8, 0, 24, 0, Math.PI), c.light)
  s.brush.detail(ellipse(bx, table - br * 0.8, br, br * 0.18, 0, 32), mix(c.warm, c.horizon, 0.3))
  // A cup on a saucer.
  const cx = s.width * 0.72
  const cw = unit * 0.1
  s.brush.detail(ellipse(cx, table + unit * 0.008, cw * 1.1, cw * 0.18, 0, 24), shade(c.light, -0.1))
  s.brush.lines([ellipse(cx + cw * 0.8, table - cw * 0.65, cw * 0.3, cw * 0.28, 0, 20)], c.light, unit * 0.012)
  s.brush.mass([[cx - cw * 0.75, table - cw * 1.25], [cx + cw * 0.75, table - cw * 1.25], [cx + cw * 0.55, table], [cx - cw * 0.55, table]], mix(c.light, c.accent, 0.25))
  const steam: Array<Poly> = []
  for (const [x0, y0] of [[bx - br * 0.35, table - br * 0.8], [bx + br * 0.2, table - br * 0.8], [cx, table - cw * 1.4]] as const) {
    const line: Array<Pt> = []
    for (let t = 0; t <= 20; t++) line.push([x0 + Math.sin(t * 0.5) * unit * 0.015, y0 - t * unit * 0.009])
    steam.push(line)
  }
  s.brush.lines(steam, c.light, unit * 0.007, 0.6)
}

const paintFire = (s: Scene) => {
  const { c, unit } = s
  const x = s.width * 0.5
  const y = Math.max(groundAt(s, x), s.height * 0.8) + unit * 0.06
  const k = unit * 0.2
  s.brush.glow(x, y - k * 0.4, k * 3, c.warm, 0.5)
  const log = mix(c.dark, c.accent, 0.3)
  s.brush.mass(rotate(roundedRect(x - k * 0.6, y - k * 0.08, k * 1.2, k * 0.16, k * 0.08), x, y, 0.25), log)
  s.brush.mass(rotate(roundedRect(x - k * 0.6, y - k * 0.08, k * 1.2, k * 0.16, k * 0.08), x, y, -0.25), log)
  /** A teardrop: the lower half of a circle, drawn up to a swaying tip. */
  const flame = (scale: number, colour: string) => {
    const r = k * 0.38 * scale
    const cy = y - k * 0.15 - r
    const tip: Pt = [x + range(s, -0.3, 0.3) * r, cy - r * 2.8]
    const bezier = (from: Pt, control: Pt, to: Pt) =>
      Array.from({ length: 10 }, (_, i): Pt => {
        const t = (i + 1) / 10
        return [
          (1 - t) ** 2 * from[0] + 2 * (1 - t) * t * control[0] + t * t * to[0],
          (1 - t) ** 2 * from[1] + 2 * (1 - t) * t * control[1] + t * t * to[1]
        ]
      })
    s.brush.mass([
      ...ellipse(x, cy, r, r, 0, 16, 0, Math.PI),
      ...bezier([x - r, cy], [x - r * 1.1, cy - r * 1.6], tip),
      ...bezier(tip, [x + r * 1.1, cy - r * 1.6], [x + r, cy])
    ], colour)
  }
  flame(1, c.warm)
  flame(0.62, mix(c.warm, c.light, 0.45))
  flame(0.3, c.light)
  for (let i = 0; i < count(s, 8); i++) {
    s.brush.detail(circle(x + range(s, -0.6, 0.6) * k, y - k * range(s, 1.3, 3), unit * 0.004, 8), mix(c.warm, c.light, 0.5))
  }
}

const paintChart = (s: Scene) => {
  const { c, unit } = s
  const base = Math.min(groundAt(s, s.width / 2) + unit * 0.25, s.height * 0.9)
  const bars = 5
  const left = s.width * 0.14
  const span = s.width * 0.72
  const barWidth = (span / bars) * 0.62
  const tops: Array<Pt> = []
  for (let i = 0; i < bars; i++) {
    const x = left + (span / bars) * i
    const height = unit * (0.12 + 0.11 * i + range(s, -0.03, 0.03))
    s.brush.mass(rect(x, base - height, barWidth, height), i === bars - 1 ? c.accent : mix(c.light, c.far, 0.2 + 0.1 * (i % 2)))
    tops.push([x + barWidth / 2, base - height - unit * 0.09])
  }
  const last = tops[tops.length - 1]!
  const before = tops[tops.length - 2]!
  const angle = Math.atan2(last[1] - before[1], last[0] - before[0])
  const tip: Pt = [last[0] + Math.cos(angle) * unit * 0.07, last[1] + Math.sin(angle) * unit * 0.07]
  s.brush.lines([[...tops, tip]], c.accent, unit * 0.016)
  const head = unit * 0.05
  s.brush.mass(rotate([[tip[0] + head, tip[1]], [tip[0] - head * 0.5, tip[1] - head * 0.75], [tip[0] - head * 0.5, tip[1] + head * 0.75]], tip[0], tip[1], angle), c.accent)
}

// ---- in front ----

const paintHearts = (s: Scene) => {
  const { c, unit } = s
  for (let i = 0; i < count(s, 4); i++) {
    const size = unit * range(s, 0.05, 0.14)
    const x = range(s, 0.1, 0.9) * s.width
    const y = range(s, 0.15, 0.9) * s.horizon
    s.brush.mass(heart(x, y, size, range(s, -0.35, 0.35)), i % 3 === 2 ? mix(c.accent, c.light, 0.45) : c.accent)
  }
}

const paintRain = (s: Scene) => {
  const { c, unit } = s
  const drops: Array<Poly> = []
  for (let i = 0; i < count(s, 220); i++) {
    const x = range(s, -0.1, 1.1) * s.width
    const y = range(s, 0, 1) * s.height
    const length = unit * range(s, 0.025, 0.06)
    drops.push([[x, y], [x - length * 0.25, y + length]])
  }
  s.brush.lines(drops, c.light, unit * 0.0025, 0.4)
}

const paintSnow = (s: Scene) => {
  for (let i = 0; i < count(s, 160); i++) {
    const r = s.unit * range(s, 0.002, 0.007)
    s.brush.detail(circle(range(s, 0, 1) * s.width, range(s, 0, 1) * s.height, r, 10), s.c.light, range(s, 0.6, 0.95))
  }
}

/** Where the sun or moon sits, decided before anything is drawn so the sky, water and glare agree on it. */
const placeLight = (plan: ScenePlan, rnd: () => number, width: number, horizon: number, unit: number): LightSource | undefined => {
  const low = plan.timeOfDay === "sunset" || plan.timeOfDay === "dawn"
  if (plan.motifs.includes("sun") && plan.timeOfDay !== "night") {
    const r = unit * (0.1 + 0.05 * rnd())
    // A low sun clears the mountains, or it would only be a glow behind them.
    const lowY = horizon - (plan.motifs.includes("peaks") ? unit * 0.42 : r * (0.2 + 0.5 * rnd()))
    return { kind: "sun", x: width * (0.3 + 0.4 * rnd()), y: low ? lowY : horizon * (0.25 + 0.15 * rnd()), r }
  }
  if (plan.motifs.includes("night-sky") && !plan.motifs.includes("planets")) {
    return { kind: "moon", x: width * (0.2 + 0.6 * rnd()), y: horizon * (0.18 + 0.2 * rnd()), r: unit * (0.06 + 0.03 * rnd()) }
  }
  return undefined
}

const horizonShare = (plan: ScenePlan): number => {
  const grounded = plan.motifs.some((m) => GROUND_MOTIFS.includes(m))
  return !grounded ? 0.8 : plan.motifs.includes("waves") ? 0.55 : 0.6
}

export interface SceneResult {
  readonly light: LightSource | undefined
  readonly horizon: number
}

/** Paints the whole scene for `plan`; every random choice comes from `rnd`, so a seed repeats a picture. */
export const paintScene = (
  canvas: Canvas2D, plan: ScenePlan, style: ArtStyle, brush: Brush, rnd: () => number
): SceneResult => {
  const unit = Math.min(canvas.width, canvas.height * 0.75)
  const horizon = canvas.height * (horizonShare(plan) + 0.06 * rnd())
  const light = placeLight(plan, rnd, canvas.width, horizon, unit)
  const s: Scene = {
    ...canvas, unit, rnd, plan, style, brush, horizon, light, grounds: [],
    c: sceneColours(style, plan),
    density: plan.mood === "lively" ? 1.4 : plan.mood === "calm" ? 0.8 : 1
  }
  const night = plan.timeOfDay === "night"
  paintSky(s)
  if (has(s, "abstract")) paintAbstract(s)
  if (night) paintStars(s)
  if (has(s, "planets")) paintNebula(s)
  if (has(s, "tech")) paintNetwork(s)
  if (light !== undefined) (light.kind === "sun" ? paintSun : paintMoon)(s, light)
  if (has(s, "planets")) paintPlanets(s)
  if (!night || has(s, "clouds")) paintClouds(s)
  if (has(s, "birds")) paintBirds(s)
  if (has(s, "music")) paintMusic(s)
  if (has(s, "peaks")) paintPeaks(s)
  if (has(s, "skyline")) paintSkyline(s)
  if (horizonShare(plan) < 0.8) paintGround(s)
  if (has(s, "skyline") && !GROUND_MOTIFS.some((m) => m !== "skyline" && has(s, m))) paintStreet(s)
  if (has(s, "hills")) paintHills(s)
  if (has(s, "desert")) paintDesert(s)
  if (has(s, "waves")) paintSea(s)
  if (has(s, "road")) paintRoad(s)
  if (has(s, "planets") && horizonShare(plan) >= 0.8) paintAlienSurface(s)
  if (style.texture === "retro-grid" && !has(s, "waves")) paintGrid(s)
  if (has(s, "trees")) paintTrees(s)
  if (has(s, "boat")) paintBoat(s)
  if (has(s, "flowers")) paintFlowers(s)
  if (has(s, "fire")) paintFire(s)
  if (has(s, "rising-chart")) paintChart(s)
  if (has(s, "crowd")) paintCrowd(s)
  if (has(s, "food")) paintFood(s)
  if (has(s, "hearts")) paintHearts(s)
  if (has(s, "rain")) paintRain(s)
  if (has(s, "snow")) paintSnow(s)
  return { light, horizon }
}
