// Prices: per started second of output, rounded up to a whole credit or cent.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import {
  BYOK_RENDER_CENTS_PER_MINUTE,
  byokRenderCents,
  byokRenderMicrodollars,
  CAPTION_CREDITS_PER_MINUTE,
  captionCredits,
  RENDER_CREDITS_PER_MINUTE,
  renderCredits
} from "../../domain/pricing.ts"

const seconds = fc.double({ min: 0, max: 2 * 60 * 60, noNaN: true })

describe("renderCredits", () => {
  it("charges 30 credits a minute at 30 fps and 60 at 60 fps", () => {
    expect(RENDER_CREDITS_PER_MINUTE).toEqual({ 30: 30, 60: 60 })
    expect(renderCredits(60, 30)).toBe(30)
    expect(renderCredits(120, 30)).toBe(60)
    expect(renderCredits(60, 60)).toBe(60)
    expect(renderCredits(2 * 60 * 60, 60)).toBe(7200)
  })

  it("counts every started second and rounds the amount up", () => {
    expect(renderCredits(61, 30)).toBe(31)
    expect(renderCredits(60.001, 30)).toBe(31)
    expect(renderCredits(59, 30)).toBe(30)
    expect(renderCredits(58, 30)).toBe(29)
    expect(renderCredits(1, 30)).toBe(1)
    expect(renderCredits(0.2, 30)).toBe(1)
    expect(renderCredits(0.2, 60)).toBe(1)
    expect(renderCredits(90.5, 60)).toBe(91)
    expect(renderCredits(90, 60)).toBe(90)
  })

  it("never charges nothing: an empty output still costs its first second", () => {
    expect(renderCredits(0, 30)).toBe(1)
    expect(renderCredits(0, 60)).toBe(1)
  })

  it("does not charge an extra second for float noise on a whole second", () => {
    // 3 * 20.1 - 0.3 is 60.00000000000001 in binary floating point.
    expect(renderCredits(3 * 20.1 - 0.3, 60)).toBe(60)
    expect(captionCredits(3 * 20.1 - 0.3)).toBe(2)
  })

  it.prop("is monotonic in duration", { a: seconds, b: seconds }, ({ a, b }) => {
    const [short, long] = a <= b ? [a, b] : [b, a]
    for (const fps of [30, 60] as const) expect(renderCredits(short, fps)).toBeLessThanOrEqual(renderCredits(long, fps))
  })

  it.prop("at 60 fps costs exactly twice 30 fps before rounding", { d: seconds }, ({ d }) => {
    const at30 = renderCredits(d, 30)
    const at60 = renderCredits(d, 60)
    // 60 fps is one credit per started second; 30 fps is half of that, rounded up.
    expect(at60).toBe(Math.max(1, Math.ceil(d - 1e-9)))
    expect(at30).toBe(Math.ceil(at60 / 2))
    expect(at60).toBeGreaterThanOrEqual(at30)
  })

  it.prop("charges at least the exact per-minute price and less than one extra second", { d: seconds }, ({ d }) => {
    for (const fps of [30, 60] as const) {
      const exact = (d * RENDER_CREDITS_PER_MINUTE[fps]) / 60
      const credits = renderCredits(d, fps)
      expect(Number.isInteger(credits)).toBe(true)
      expect(credits).toBeGreaterThanOrEqual(exact - 1e-6)
      expect(credits).toBeLessThan(exact + RENDER_CREDITS_PER_MINUTE[fps] / 60 + 1)
    }
  })
})

describe("byokRenderCents", () => {
  it("charges 10 cents a minute of output, rounded up", () => {
    expect(BYOK_RENDER_CENTS_PER_MINUTE).toBe(10)
    expect(byokRenderCents(60)).toBe(10)
    expect(byokRenderCents(61)).toBe(11)
    expect(byokRenderCents(6)).toBe(1)
    expect(byokRenderCents(7)).toBe(2)
    expect(byokRenderCents(0.2)).toBe(1)
    expect(byokRenderCents(2 * 60 * 60)).toBe(1200)
  })

  it.prop("is monotonic in duration", { a: seconds, b: seconds }, ({ a, b }) => {
    const [short, long] = a <= b ? [a, b] : [b, a]
    expect(byokRenderCents(short)).toBeLessThanOrEqual(byokRenderCents(long))
  })

  it.prop("is charged as exactly 10,000 micro-dollars per whole cent", { s: seconds }, ({ s }) => {
    expect(byokRenderMicrodollars(s)).toBe(byokRenderCents(s) * 10_000)
    expect(byokRenderMicrodollars(12.3)).toBe(30_000)
  })
})

describe("captionCredits", () => {
  it("charges per started minute of source", () => {
    expect(CAPTION_CREDITS_PER_MINUTE).toBe(2)
    expect(captionCredits(0.2)).toBe(2)
    expect(captionCredits(60)).toBe(2)
    expect(captionCredits(60.5)).toBe(4)
    expect(captionCredits(61)).toBe(4)
    expect(captionCredits(120)).toBe(4)
    expect(captionCredits(2 * 60 * 60)).toBe(240)
  })

  it.prop("is monotonic in duration and a whole number of minutes", { a: seconds, b: seconds }, ({ a, b }) => {
    const [short, long] = a <= b ? [a, b] : [b, a]
    expect(captionCredits(short)).toBeLessThanOrEqual(captionCredits(long))
    expect(captionCredits(a) % CAPTION_CREDITS_PER_MINUTE).toBe(0)
  })
})
