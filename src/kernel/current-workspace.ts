import { Context } from "effect"
import type { Workspace } from "../../domain/ports/workspace-store.ts"

/** The workspace a request acts for; every query is scoped by it. Provided by the surface after authentication. */
export class CurrentWorkspace extends Context.Tag("CurrentWorkspace")<CurrentWorkspace, Workspace>() {}
