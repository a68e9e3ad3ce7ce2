// Plans and what each allows. Later issues add limits here; names stay.
import { Schema } from "effect"

export const Plan = Schema.Literal("free", "creator", "pro").annotations({
  description: "`free` cannot export mp4s (unless BYOK); `creator` and `pro` are paid plans."
})
export type Plan = typeof Plan.Type

export interface PlanRules {
  readonly paid: boolean
  /** Days an uploaded source keeps resolving; null = kept until deleted. */
  readonly fileRetentionDays: number | null
}

export const PLAN_RULES: Readonly<Record<Plan, PlanRules>> = {
  free: { paid: false, fileRetentionDays: 7 },
  creator: { paid: true, fileRetentionDays: 30 },
  pro: { paid: true, fileRetentionDays: null }
}

/** Rendering needs a paid plan unless the workspace brings its own key (BYOK). */
export const canRender = (plan: Plan, byok: boolean): boolean => byok || PLAN_RULES[plan].paid
