// The apps' overlay zones: drawn over portrait videos only, the insets the export keeps clear of, and
// the zones a caption block reaches into where a person placed it (the editor's warning).
// safe-zones.ts is imported first on purpose: captions.ts imports it, so it must load on its own.
import { describe, expect, it } from "vitest"
import { blockExtent, NO_INSETS, SAFE_ZONES, safeInsets, zonesEntered, zonesOver } from "../../domain/safe-zones.ts"
import { BUILT_IN_TEMPLATES, type CaptionStyle, placementOf } from "../../domain/captions.ts"

const BOLD_POP = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const block = (style: CaptionStyle) => ({ ...style, ...placementOf(style) })
const labels = (style: CaptionStyle, width = 360, height = 640) => zonesEntered(block(style), "tiktok", width, height).map((zone) => zone.label)

describe("safe zones", () => {
  it("lie over portrait videos only, and push in the edges they sit on", () => {
    expect(zonesOver("tiktok", 1080, 1920)).toBe(SAFE_ZONES.tiktok)
    expect(zonesOver("tiktok", 1920, 1080)).toEqual([])
    expect(zonesOver("none", 1080, 1920)).toEqual([])
    expect(safeInsets("tiktok", 1080, 1920)).toEqual({ top: 0.085, bottom: 0.24, left: 0, right: 0.125 })
    expect(safeInsets("reels", 1080, 1080)).toBe(NO_INSETS)
  })

  it("estimate a block's extent from its edge, margin, lines and font size", () => {
    const extent = blockExtent({ edge: "bottom", marginRatio: 0.08, linesPerPage: 1, fontSizeRatio: 0.04 })
    expect(extent.bottom).toBeCloseTo(0.92)
    expect(extent.top).toBeCloseTo(0.87)
    expect(blockExtent({ edge: "top", marginRatio: 0.1, linesPerPage: 2, fontSizeRatio: 0.04 })).toEqual({ top: 0.1, bottom: 0.2 })
    expect(blockExtent({ edge: "centre", marginRatio: 0, linesPerPage: 2, fontSizeRatio: 0.04 })).toEqual({ top: 0.45, bottom: 0.55 })
  })

  it("name the zones a block enters where it was placed", () => {
    // Near the bottom: into the description; a margin above it: clear of it (the buttons' column is the export's to keep clear).
    expect(labels({ ...BOLD_POP, position: "bottom", marginRatio: 0.02 })).toEqual(["account name, description and sound"])
    expect(labels({ ...BOLD_POP, position: "bottom", marginRatio: 0.3 })).toEqual([])
    // At the top: the template's margin clears the tabs, a small one does not.
    expect(labels({ ...BOLD_POP, position: "top" })).toEqual([])
    expect(labels({ ...BOLD_POP, position: "top", marginRatio: 0.02 })).toEqual(["tabs and search"])
    // Centred: beside the buttons, whose column the side margin keeps clear; no warning.
    expect(labels(BOLD_POP)).toEqual([])
    // Nothing over a landscape video, nor with no platform.
    expect(labels({ ...BOLD_POP, position: "bottom", marginRatio: 0.02 }, 640, 360)).toEqual([])
    expect(zonesEntered(block({ ...BOLD_POP, position: "bottom", marginRatio: 0.02 }), "none", 360, 640)).toEqual([])
  })
})
