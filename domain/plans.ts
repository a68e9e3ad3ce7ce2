// Plans and what each allows. Later issues add limits here; names stay.
import { Schema } from "effect"

export const PLANS = ["free", "creator", "pro", "business"] as const
export type Plan = (typeof PLANS)[number]

export interface PlanRules {
  readonly paid: boolean
  /** Credits added on the first of each calendar month (UTC), to workspaces that existed before it began. */
  readonly monthlyCredits: number
  /** Days an uploaded source keeps resolving; null = kept until deleted. */
  readonly fileRetentionDays: number | null
  /** Jobs of the workspace that may run at once; more wait in the queue, so one workspace cannot take every worker. */
  readonly maxConcurrentJobs: number
}

export const PLAN_RULES: Readonly<Record<Plan, PlanRules>> = {
  free: { paid: false, monthlyCredits: 50, fileRetentionDays: 7, maxConcurrentJobs: 1 },
  creator: { paid: true, monthlyCredits: 1_000, fileRetentionDays: 30, maxConcurrentJobs: 2 },
  pro: { paid: true, monthlyCredits: 5_000, fileRetentionDays: null, maxConcurrentJobs: 4 },
  business: { paid: true, monthlyCredits: 20_000, fileRetentionDays: null, maxConcurrentJobs: 10 }
}

const describePlan = (plan: Plan): string => {
  const rules = PLAN_RULES[plan]
  const files = rules.fileRetentionDays === null ? "files kept until deleted" : `files expire after ${rules.fileRetentionDays} days`
  const rendering = rules.paid ? "renders mp4s" : "cannot render mp4s unless BYOK"
  return `\`${plan}\`: ${rendering}, ${rules.monthlyCredits} credits a month, ${files}, ${rules.maxConcurrentJobs} job(s) at once`
}

// The description is written from PLAN_RULES, so the documented limits are the enforced ones.
export const Plan = Schema.Literal(...PLANS).annotations({
  description: `The workspace's plan. ${PLANS.map(describePlan).join("; ")}.`
})

/** Rendering needs a paid plan unless the workspace brings its own key (BYOK). */
export const canRender = (plan: Plan, byok: boolean): boolean => byok || PLAN_RULES[plan].paid
