// Sizes and places on even pixels: which way each rounds, and the least size.
import { describe, expect, it } from "vitest"
import { evenAbove, evenBelow, evenSize, evenSizeBelow } from "../../domain/even-pixels.ts"

describe("even pixels", () => {
  it("puts places below or above, sizes to the nearest or below, and no size under 2", () => {
    expect([7, 8, 7.9, 0.5].map(evenBelow)).toEqual([6, 8, 6, 0])
    expect([7, 8, 6.1, 0.5].map(evenAbove)).toEqual([8, 8, 8, 2])
    expect([7.2, 6.9, 5, 0.4].map(evenSize)).toEqual([8, 6, 6, 2])
    expect([7.9, 8, 1.9].map(evenSizeBelow)).toEqual([6, 8, 2])
  })
})
