// What each plan allows.
import { describe, expect, it } from "@effect/vitest"
import { canRender, PLAN_RULES } from "../../domain/plans.ts"

describe("canRender", () => {
  it("needs a paid plan unless the workspace brings its own key", () => {
    expect(canRender("free", false)).toBe(false)
    expect(canRender("free", true)).toBe(true)
    for (const plan of ["creator", "pro"] as const) {
      expect(canRender(plan, false)).toBe(true)
      expect(canRender(plan, true)).toBe(true)
    }
  })
})

describe("PLAN_RULES", () => {
  it("keeps files longer on higher plans, forever on pro", () => {
    expect(PLAN_RULES.free.fileRetentionDays).toBe(7)
    expect(PLAN_RULES.creator.fileRetentionDays).toBe(30)
    expect(PLAN_RULES.pro.fileRetentionDays).toBeNull()
  })
})
