// Polygon geometry for the built-in illustrator: every form is a closed list of points, so each style can ink it its own way.

export type Pt = readonly [number, number]
export type Poly = ReadonlyArray<Pt>

const TAU = Math.PI * 2

export const ellipse = (
  cx: number, cy: number, rx: number, ry: number, rotation = 0, steps = 48, from = 0, to = TAU
): Array<Pt> => {
  const cos = Math.cos(rotation)
  const sin = Math.sin(rotation)
  const out: Array<Pt> = []
  const closed = to - from >= TAU - 1e-9
  const count = closed ? steps : steps + 1
  for (let i = 0; i < count; i++) {
    const a = from + ((to - from) * i) / steps
    const x = Math.cos(a) * rx
    const y = Math.sin(a) * ry
    out.push([cx + x * cos - y * sin, cy + x * sin + y * cos])
  }
  return out
}

export const circle = (cx: number, cy: number, r: number, steps = 40): Array<Pt> => ellipse(cx, cy, r, r, 0, steps)

export const rect = (x: number, y: number, w: number, h: number): Array<Pt> => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]

export const roundedRect = (x: number, y: number, w: number, h: number, radius: number): Array<Pt> => {
  const r = Math.min(radius, w / 2, h / 2)
  const corner = (cx: number, cy: number, start: number) =>
    ellipse(cx, cy, r, r, 0, 6, start, start + Math.PI / 2)
  return [
    ...corner(x + w - r, y + r, -Math.PI / 2),
    ...corner(x + w - r, y + h - r, 0),
    ...corner(x + r, y + h - r, Math.PI / 2),
    ...corner(x + r, y + r, Math.PI)
  ]
}

/** The classic parametric heart, `size` wide, centred on (cx, cy). */
export const heart = (cx: number, cy: number, size: number, rotation = 0): Array<Pt> => {
  const k = size / 34
  const cos = Math.cos(rotation)
  const sin = Math.sin(rotation)
  const out: Array<Pt> = []
  for (let i = 0; i < 48; i++) {
    const t = (TAU * i) / 48
    const x = 16 * Math.sin(t) ** 3 * k
    const y = -(13 * Math.cos(t) - 5 * Math.cos(2 * t) - 2 * Math.cos(3 * t) - Math.cos(4 * t)) * k
    out.push([cx + x * cos - y * sin, cy + x * sin + y * cos])
  }
  return out
}

/** The area under a line: the line y(x) from x0 to x1, closed down to `bottom`. */
export const underLine = (x0: number, x1: number, y: (x: number) => number, bottom: number, step: number): Array<Pt> => {
  const out: Array<Pt> = [[x0, bottom]]
  for (let x = x0; x < x1; x += step) out.push([x, y(x)])
  out.push([x1, y(x1)], [x1, bottom])
  return out
}

export interface Bump {
  readonly x: number
  readonly y: number
  readonly r: number
}

/** A cumulus outline: the upper edge of overlapping circles over a flat base at `baseY`. */
export const cloudOutline = (bumps: ReadonlyArray<Bump>, baseY: number, step: number): Array<Pt> => {
  const x0 = Math.min(...bumps.map((b) => b.x - b.r))
  const x1 = Math.max(...bumps.map((b) => b.x + b.r))
  const top = (x: number) =>
    bumps.reduce((y, b) => {
      const dx = x - b.x
      return Math.abs(dx) < b.r ? Math.min(y, b.y - Math.sqrt(b.r * b.r - dx * dx)) : y
    }, baseY)
  const out: Array<Pt> = []
  for (let x = x0; x < x1; x += step) out.push([x, Math.min(baseY, top(x))])
  out.push([x1, baseY])
  return out
}

export const translate = (poly: Poly, dx: number, dy: number): Array<Pt> => poly.map(([x, y]) => [x + dx, y + dy])

export const rotate = (poly: Poly, cx: number, cy: number, angle: number): Array<Pt> => {
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  return poly.map(([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos])
}

export interface Bounds {
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

export const bounds = (poly: Poly): Bounds => {
  let x0 = Infinity
  let y0 = Infinity
  let x1 = -Infinity
  let y1 = -Infinity
  for (const [x, y] of poly) {
    x0 = Math.min(x0, x)
    y0 = Math.min(y0, y)
    x1 = Math.max(x1, x)
    y1 = Math.max(y1, y)
  }
  return { x0, y0, x1, y1 }
}

/** Adds points so no edge is longer than `maxLength`: wobbly edges need points to wobble. */
export const subdivide = (poly: Poly, maxLength: number): Array<Pt> => {
  const out: Array<Pt> = []
  poly.forEach((a, i) => {
    const b = poly[(i + 1) % poly.length]!
    const pieces = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / maxLength))
    for (let k = 0; k < pieces; k++) {
      out.push([a[0] + ((b[0] - a[0]) * k) / pieces, a[1] + ((b[1] - a[1]) * k) / pieces])
    }
  })
  return out
}
