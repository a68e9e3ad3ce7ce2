import { Effect } from "effect"
import { PlanForbids } from "../../../../domain/errors.ts"
import { canRender } from "../../../../domain/plans.ts"
import type { Workspace } from "../../../../domain/ports/workspace-store.ts"
import type { RenderOptions } from "../../../../domain/rules.ts"

/** A create that asks for `render` on a plan that cannot render is refused before anything is made. */
export const requireRenderAllowed = (workspace: Workspace, render: RenderOptions | undefined) =>
  render === undefined || canRender(workspace.plan, workspace.byok)
    ? Effect.void
    : new PlanForbids({
      plan: workspace.plan,
      message: "Rendering an mp4 needs a paid plan (or BYOK). Leave out `render` to get an editable project."
    })
