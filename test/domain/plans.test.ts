// What each plan allows.
import { describe, expect, it } from "@effect/vitest"
import { SchemaAST as AST } from "effect"
import { canRender, Plan, PLAN_RULES, PLANS } from "../../domain/plans.ts"

describe("canRender", () => {
  it("needs a paid plan unless the workspace brings its own key", () => {
    expect(canRender("free", false)).toBe(false)
    expect(canRender("free", true)).toBe(true)
    for (const plan of ["creator", "pro", "business"] as const) {
      expect(canRender(plan, false)).toBe(true)
      expect(canRender(plan, true)).toBe(true)
    }
  })
})

describe("PLAN_RULES", () => {
  it("keeps files longer on higher plans, forever on pro and business", () => {
    expect(PLAN_RULES.free.fileRetentionDays).toBe(7)
    expect(PLAN_RULES.creator.fileRetentionDays).toBe(30)
    expect(PLAN_RULES.pro.fileRetentionDays).toBeNull()
    expect(PLAN_RULES.business.fileRetentionDays).toBeNull()
  })

  it("grants more credits and runs more jobs at once on each higher plan", () => {
    const order = PLANS.map((plan) => PLAN_RULES[plan])
    for (const [lower, higher] of order.slice(0, -1).map((rules, i) => [rules, order[i + 1]!] as const)) {
      expect(higher.monthlyCredits).toBeGreaterThan(lower.monthlyCredits)
      expect(higher.maxConcurrentJobs).toBeGreaterThanOrEqual(lower.maxConcurrentJobs)
    }
    expect(PLAN_RULES.free.maxConcurrentJobs).toBeGreaterThanOrEqual(1)
  })

  it("documents every plan's limits in the Plan schema, from the rules themselves", () => {
    const description = String(Plan.ast.annotations[AST.DescriptionAnnotationId])
    for (const plan of PLANS) {
      const { maxConcurrentJobs, monthlyCredits } = PLAN_RULES[plan]
      expect(description).toContain(`\`${plan}\`: `)
      expect(description).toContain(`${monthlyCredits} credits a month`)
      expect(description).toContain(`${maxConcurrentJobs} job(s) at once`)
    }
    expect(description).toContain("files expire after 7 days")
  })
})
