import { Context, type Effect } from "effect"

/** Runs an effect atomically across every store port: all of its writes land, or none do. */
export interface TransactorShape {
  readonly atomically: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}
export class Transactor extends Context.Tag("Transactor")<Transactor, TransactorShape>() {}
