import { Effect, Schema } from "effect"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { ListEnvelope, PageParams } from "../../shared/list-envelope.ts"
import { CreditLog, presentCreditLog } from "./parts/credit-log-object.ts"

export const listCreditLogs = operation({
  name: "listCreditLogs",
  summary: "List credit logs",
  description:
    "Every movement of the workspace's credits, newest first: charges with the video each paid for, refunds, top-ups, " +
    "each with the balance right after it. Pass `videoId` for one video's movements.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    videoId: Schema.optional(Schema.String.annotations({ description: "Only the movements of this video." })),
    ...PageParams
  }),
  output: ListEnvelope(CreditLog, "CreditLogList"),
  errors: [],
  http: { method: "GET", path: "/v1/credit-logs" },
  access: "workspace",
  tool: "list_credit_logs",
  cli: "credit-logs",
  idempotent: false,
  handle: ({ videoId, limit, cursor }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const page = yield* (yield* Ledger).page({ workspaceId: workspace.id, videoId, limit, cursor })
      return { data: page.items.map(presentCreditLog), nextCursor: page.nextCursor }
    })
})
