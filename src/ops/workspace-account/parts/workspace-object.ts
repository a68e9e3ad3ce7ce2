import { Schema } from "effect"
import { Plan } from "../../../../domain/plans.ts"
import type { Workspace } from "../../../../domain/ports/workspace-store.ts"

export const CashBalance = Schema.Struct({
  balance: Schema.Int.annotations({ description: "The cash balance in micro-dollars (1 USD = 1,000,000; $0.10 = 100000)." }),
  currency: Schema.Literal("USD").annotations({ description: "Always US dollars." }),
  unit: Schema.Literal("microdollars").annotations({ description: "Amounts of cash are integer micro-dollars." })
}).annotations({ identifier: "CashBalance", description: "Money for BYOK renders and marketplace purchases." })

export const WorkspaceObject = Schema.Struct({
  id: Schema.String.annotations({ description: "The workspace's id." }),
  name: Schema.String.annotations({ description: "Its name." }),
  plan: Plan,
  credits: Schema.Int.annotations({ description: "The credit balance." }),
  cash: CashBalance,
  owner: Schema.Struct({ email: Schema.String.annotations({ description: "The owner's email address." }) })
    .annotations({ description: "Who owns the workspace." }),
  byok: Schema.Boolean.annotations({ description: "Whether renders are charged from the cash balance (bring your own key)." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "Workspace", description: "The workspace a token acts for, with its balances." })
export type WorkspaceObject = typeof WorkspaceObject.Type

export const presentWorkspace = (workspace: Workspace, credits: number, cash: number): WorkspaceObject => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  credits,
  cash: { balance: cash, currency: "USD", unit: "microdollars" },
  owner: { email: workspace.ownerEmail },
  byok: workspace.byok,
  createdAt: workspace.createdAt
})
