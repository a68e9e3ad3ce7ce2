// Colour arithmetic on #rrggbb strings, for mixing shades from a style's palette.

export type Rgb = readonly [number, number, number]

export const parseHex = (hex: string): Rgb => {
  const n = Number.parseInt(hex.replace(/^#/, ""), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

const toHex = ([r, g, b]: Rgb): string =>
  `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, "0")).join("")}`

/** `a` moved towards `b` by `t` (0: a, 1: b). */
export const mix = (a: string, b: string, t: number): string => {
  const [ar, ag, ab] = parseHex(a)
  const [br, bg, bb] = parseHex(b)
  return toHex([ar + (br - ar) * t, ag + (bg - ag) * t, ab + (bb - ab) * t])
}

/** Lighter towards white for a positive amount, darker towards black for a negative one. */
export const shade = (colour: string, amount: number): string =>
  amount >= 0 ? mix(colour, "#ffffff", amount) : mix(colour, "#000000", -amount)

export const withAlpha = (colour: string, alpha: number): string => {
  const [r, g, b] = parseHex(colour)
  return `rgba(${r},${g},${b},${alpha})`
}

/** Perceived brightness, 0 to 255. */
export const luma = (colour: string): number => {
  const [r, g, b] = parseHex(colour)
  return 0.299 * r + 0.587 * g + 0.114 * b
}
