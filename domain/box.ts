// A box in a picture, in its pixels: where something is drawn or taken from.

export interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}
