import { describe, expect, it } from "vitest"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { captionStyleFor, motionOfScene, sceneCountFor } from "../../domain/generated-project.ts"

describe("generated projects", () => {
  it("shows gameplay captions big and centred, with lines short enough for the bigger words", () => {
    for (const { style } of BUILT_IN_TEMPLATES) {
      const gameplay = captionStyleFor("gameplay", style)
      expect(gameplay.position).toBe("middle")
      expect(gameplay.fontSizeRatio).toBeGreaterThanOrEqual(0.06)
      // A line is about as wide as before: characters times their size stays within the template's.
      expect(gameplay.maxCharsPerLine * gameplay.fontSizeRatio).toBeLessThanOrEqual(style.maxCharsPerLine * style.fontSizeRatio + 0.06)
      expect(captionStyleFor("ai", style)).toBe(style)
    }
  })

  it("draws about one picture every six seconds, 1 to 12, moving differently each time", () => {
    expect([1, 6, 30, 60, 600].map(sceneCountFor)).toEqual([1, 1, 5, 10, 12])
    expect(motionOfScene(0)).not.toBe(motionOfScene(1))
  })
})
