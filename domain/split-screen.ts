// A split screen, as every picture here stacks two: a generated video's picture above its gameplay, a
// reframed talk's two speakers.
import { evenSize } from "./even-pixels.ts"

/** The height of a split screen's top half: half the frame, in whole pairs of pixels (H.264 4:2:0). */
export const splitTopHeight = (height: number): number => evenSize(height / 2)
