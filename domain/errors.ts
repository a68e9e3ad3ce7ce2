// Errors the use cases fail with. The HTTP adapter maps each to a status (domain knows no HTTP).
import { Schema } from "effect"

/** Bad input: names the field (a JSON path such as `render.frameRate`) and what is wrong with it. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  message: Schema.String
}) {}

export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  message: Schema.String
}) {}

export class InsufficientCredits extends Schema.TaggedError<InsufficientCredits>()("InsufficientCredits", {
  required: Schema.Number,
  balance: Schema.Number
}) {
  override get message() {
    return `This needs ${this.required} credits; the workspace has ${this.balance}.`
  }
}

/** A cash charge beyond the cash balance; amounts in micro-dollars. */
export class InsufficientCash extends Schema.TaggedError<InsufficientCash>()("InsufficientCash", {
  required: Schema.Number,
  balance: Schema.Number
}) {
  override get message() {
    return `This needs ${this.required} micro-dollars of cash; the workspace has ${this.balance}.`
  }
}

export class PlanForbids extends Schema.TaggedError<PlanForbids>()("PlanForbids", {
  plan: Schema.String,
  message: Schema.String
}) {}

/** Also answers for records of another workspace, so their existence never leaks. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  resource: Schema.String,
  id: Schema.String
}) {
  override get message() {
    return `No ${this.resource} with id ${this.id}.`
  }
}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: Schema.String
}) {}

/**
 * A tool or provider the request needs failed, through no fault of the request (a speech engine that
 * crashed): the same request may work later, or with another choice such as another voice.
 */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  message: Schema.String
}) {}

export type DomainError =
  | InvalidInput
  | Unauthenticated
  | InsufficientCredits
  | InsufficientCash
  | PlanForbids
  | NotFound
  | Conflict
  | Unavailable

/** Background work that cannot go on; `message` becomes the video's `error`, so it says what to do. */
export class WorkFailed extends Schema.TaggedError<WorkFailed>()("WorkFailed", {
  message: Schema.String
}) {}
