// Where a fake-text video's chat screen sits in the frame: the whole frame (a phone-shaped frame and
// nothing behind it), the top half (split screen over a backdrop), or a phone-shaped card centred over
// the backdrop. The chat is drawn at the box's size, so it is never scaled in the encode.
import { splitTopHeight } from "./split-screen.ts"
import type { Box } from "./box.ts"
import { evenBelow, evenSizeBelow } from "./even-pixels.ts"

export type ChatPlacement =
  | { readonly _tag: "Full"; readonly box: Box }
  | { readonly _tag: "Split"; readonly box: Box }
  | { readonly _tag: "Card"; readonly box: Box }

/** A card fills this share of the frame's height (or width, when that is tighter). */
const CARD_SHARE = 0.9
/** A phone screen's shape, width over height. */
const PHONE_ASPECT = 9 / 16

export const chatPlacement = (width: number, height: number, hasBackdrop: boolean, split: boolean): ChatPlacement => {
  if (split && hasBackdrop) return { _tag: "Split", box: { x: 0, y: 0, width, height: splitTopHeight(height) } }
  if (!hasBackdrop && width / height <= PHONE_ASPECT + 0.01) return { _tag: "Full", box: { x: 0, y: 0, width, height } }
  const cardHeight = evenSizeBelow(Math.min(height * CARD_SHARE, (width * CARD_SHARE) / PHONE_ASPECT))
  const cardWidth = evenSizeBelow(cardHeight * PHONE_ASPECT)
  return {
    _tag: "Card",
    box: { x: evenBelow((width - cardWidth) / 2), y: evenBelow((height - cardHeight) / 2), width: cardWidth, height: cardHeight }
  }
}
