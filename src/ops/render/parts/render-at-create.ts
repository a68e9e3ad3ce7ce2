import type { RenderOptions } from "../../../../domain/rules.ts"
import type { RenderNeed } from "../../../kernel/start-work.ts"

/** A create that asks for `render` on a plan that cannot render is refused before anything is made. */
export const renderAtCreate = (render: RenderOptions | undefined): RenderNeed => ({
  needed: render !== undefined,
  refusal: "Rendering an mp4 needs a paid plan (or BYOK). Leave out `render` to get an editable project."
})
