// The price list says what the charging functions charge: for sample lengths, a row's amount, unit
// and way of counting give the same number as the function that charges that item.
import { describe, expect, it } from "vitest"
import { PRICE_LIST, type PriceRow } from "../../domain/price-list.ts"
import {
  byokRenderCents,
  captionCredits,
  clipSelectionCredits,
  reframeCredits,
  FAKE_TEXT_SCREENSHOT_CREDITS,
  removalAnalysisCredits,
  removalWipeCredits,
  renderCredits,
  speechCredits
} from "../../domain/pricing.ts"

/** The function that charges each item of the list; a new charged item must be named here. */
const CHARGE_OF: Readonly<Record<string, (seconds: number) => number>> = {
  "captions": captionCredits,
  "reframing": reframeCredits,
  "speech": speechCredits,
  "render at 30 fps": (s) => renderCredits(s, 30),
  "render at 60 fps": (s) => renderCredits(s, 60),
  "render (BYOK)": byokRenderCents,
  "screenshot": () => FAKE_TEXT_SCREENSHOT_CREDITS,
  "caption removal: finding text": removalAnalysisCredits,
  "caption removal: wiping": removalWipeCredits,
  "clip selection": clipSelectionCredits
}

const SAMPLE_SECONDS = [0, 0.2, 1, 6, 7, 29.5, 59, 60, 60.5, 61, 90, 119, 120, 121, 3599, 3601, 7200]

/** What a row says a length costs, read the way its `counted` field describes. */
const priceByRow = (row: PriceRow, seconds: number): number => {
  const started = Math.max(1, Math.ceil(seconds))
  switch (row.counted) {
    case "per request":
      return row.amount
    case "per started minute":
      return Math.ceil(started / 60) * row.amount
    case "per started second":
      return Math.ceil((started * row.amount) / 60)
  }
}

const rows = Object.values(PRICE_LIST).flat()
const charged = rows.filter((row) => row.amount > 0)

describe("the price list", () => {
  it("prices every charged item as the function that charges it, for every sample length", () => {
    expect(charged.length).toBeGreaterThan(0)
    for (const row of charged) {
      const charge = CHARGE_OF[row.item]
      expect(charge, `no charging function named for "${row.item}"`).toBeDefined()
      for (const seconds of SAMPLE_SECONDS) {
        expect(priceByRow(row, seconds), `${row.item} for ${seconds} s`).toBe(charge!(seconds))
      }
    }
  })

  it("charges lengths, not requests (but for the screenshot's fixed price), and free rows charge nothing", () => {
    for (const row of charged) expect(row.per === "request", row.item).toBe(row.item === "screenshot")
    for (const row of rows.filter((r) => r.per === "request" && r.item !== "screenshot")) {
      expect(row).toMatchObject({ amount: 0, counted: "per request" })
    }
  })

  it("quotes the numbers of its rows in their words", () => {
    for (const row of charged) {
      const stated = row.currency === "cents" ? `$${(row.amount / 100).toFixed(2)}` : `${row.amount} credits`
      expect(row.rule).toContain(stated)
    }
  })

  it("charges cash only for a BYOK render, and credits for everything else", () => {
    expect(rows.filter((r) => r.currency === "cents").map((r) => r.item)).toEqual(
      expect.arrayContaining(["render (BYOK)"])
    )
    for (const row of rows) expect(row.currency === "cents").toBe(row.item === "render (BYOK)")
  })
})
