// Falling blocks: seven tetromino pieces from shuffled bags on a 10x20 board; an AI rotates, moves and drops
// each piece where it leaves the flattest stack, and full lines flash and clear.
import { fixedTicks, type GameEvent, randomFor, recentEvents, shuffled } from "../gameplay.ts"

export const BOARD_COLUMNS = 10
export const BOARD_ROWS = 20
/** Rows above the visible board where pieces appear. */
export const HIDDEN_ROWS = 2
const ALL_ROWS = BOARD_ROWS + HIDDEN_ROWS

/** I, J, L, O, S, T, Z: each piece's cells (column, row) in its spawn rotation, in a box of `size`. */
const SHAPES: ReadonlyArray<{ readonly size: number; readonly cells: ReadonlyArray<readonly [number, number]> }> = [
  { size: 4, cells: [[0, 1], [1, 1], [2, 1], [3, 1]] },
  { size: 3, cells: [[0, 0], [0, 1], [1, 1], [2, 1]] },
  { size: 3, cells: [[2, 0], [0, 1], [1, 1], [2, 1]] },
  { size: 2, cells: [[0, 0], [1, 0], [0, 1], [1, 1]] },
  { size: 3, cells: [[1, 0], [2, 0], [0, 1], [1, 1]] },
  { size: 3, cells: [[1, 0], [0, 1], [1, 1], [2, 1]] },
  { size: 3, cells: [[0, 0], [1, 0], [1, 1], [2, 1]] }
]
export const PIECE_KINDS = SHAPES.length

/** The cells of a piece kind in a rotation (0-3, clockwise), relative to its box. */
export const pieceCells = (kind: number, rotation: number): ReadonlyArray<readonly [number, number]> => {
  const shape = SHAPES[kind]!
  let cells = shape.cells
  for (let r = 0; r < ((rotation % 4) + 4) % 4; r++) cells = cells.map(([x, y]) => [shape.size - 1 - y, x] as const)
  return cells
}

export interface Piece {
  readonly kind: number
  readonly rotation: number
  /** The box's top-left cell on the board; row 0 is the top hidden row. */
  readonly x: number
  readonly y: number
}

export type BlocksEvent = GameEvent<"clear">

export interface BlocksState {
  readonly seed: number
  readonly time: number
  /** Row-major, ALL_ROWS x BOARD_COLUMNS: 0 empty, else the piece kind + 1. */
  readonly board: ReadonlyArray<number>
  readonly piece: Piece | null
  readonly target: { readonly rotation: number; readonly x: number } | null
  readonly hardDrop: boolean
  readonly queue: ReadonlyArray<number>
  readonly bags: number
  readonly phase: "falling" | "clearing" | "waiting"
  readonly timer: number
  readonly gravityTimer: number
  readonly lockTimer: number
  /** Rows flashing before they clear. */
  readonly clearing: ReadonlyArray<number>
  /** The last piece to lock, and the row it was dropped from: the picture draws its trail. */
  readonly landed: { readonly piece: Piece; readonly from: number; readonly time: number } | null
  readonly score: number
  readonly lines: number
  readonly level: number
  readonly pieces: number
  readonly topouts: number
  readonly events: ReadonlyArray<BlocksEvent>
}

const MOVE_SECONDS = 0.085
const SOFT_DROP_SECONDS = 1 / 30
const LOCK_SECONDS = 0.2
/** How long full rows flash before they go. */
export const CLEAR_SECONDS = 0.4
const SPAWN_SECONDS = 0.12
const LINE_POINTS = [0, 100, 300, 500, 800]

const gravitySeconds = (level: number): number => Math.max(0.25, 0.7 * 0.85 ** (level - 1))

export const cellsOf = (piece: Piece): Array<readonly [number, number]> =>
  pieceCells(piece.kind, piece.rotation).map(([cx, cy]) => [piece.x + cx, piece.y + cy] as const)

export const fits = (board: ReadonlyArray<number>, piece: Piece): boolean =>
  cellsOf(piece).every(([x, y]) => x >= 0 && x < BOARD_COLUMNS && y >= 0 && y < ALL_ROWS && board[y * BOARD_COLUMNS + x] === 0)

/** Where the piece lands if dropped straight down. */
export const landing = (board: ReadonlyArray<number>, piece: Piece): Piece => {
  let p = piece
  while (fits(board, { ...p, y: p.y + 1 })) p = { ...p, y: p.y + 1 }
  return p
}

const place = (board: ReadonlyArray<number>, piece: Piece): Array<number> => {
  const next = [...board]
  for (const [x, y] of cellsOf(piece)) next[y * BOARD_COLUMNS + x] = piece.kind + 1
  return next
}

const fullRows = (board: ReadonlyArray<number>): Array<number> =>
  Array.from({ length: ALL_ROWS }, (_, y) => y).filter((y) => board.slice(y * BOARD_COLUMNS, (y + 1) * BOARD_COLUMNS).every((c) => c !== 0))

const withoutRows = (board: ReadonlyArray<number>, rows: ReadonlyArray<number>): Array<number> => {
  const kept = Array.from({ length: ALL_ROWS }, (_, y) => y).filter((y) => !rows.includes(y))
  return [...new Array<number>(rows.length * BOARD_COLUMNS).fill(0), ...kept.flatMap((y) => board.slice(y * BOARD_COLUMNS, (y + 1) * BOARD_COLUMNS))]
}

/** The well-known hand-tuned weights: low, flat stacks without holes, and cleared lines. */
const evaluate = (board: ReadonlyArray<number>, cleared: number): number => {
  let aggregate = 0
  let holes = 0
  let bumpiness = 0
  let previous = -1
  for (let x = 0; x < BOARD_COLUMNS; x++) {
    let height = 0
    for (let y = 0; y < ALL_ROWS; y++) {
      const filled = board[y * BOARD_COLUMNS + x] !== 0
      if (filled && height === 0) height = ALL_ROWS - y
      else if (!filled && height > 0) holes += 1
    }
    aggregate += height
    if (previous >= 0) bumpiness += Math.abs(height - previous)
    previous = height
  }
  return -0.510066 * aggregate + 0.760666 * cleared - 0.35663 * holes - 0.184483 * bumpiness
}

/** The rotation and column the AI will drop the piece at. */
const plan = (board: ReadonlyArray<number>, piece: Piece): { rotation: number; x: number } => {
  let best = { rotation: piece.rotation, x: piece.x, value: -Infinity }
  for (let rotation = 0; rotation < (piece.kind === 3 ? 1 : 4); rotation++) {
    for (let x = -3; x < BOARD_COLUMNS; x++) {
      const start = { ...piece, rotation, x }
      if (!fits(board, start)) continue
      const after = place(board, landing(board, start))
      const rows = fullRows(after)
      const value = evaluate(withoutRows(after, rows), rows.length)
      if (value > best.value) best = { rotation, x, value }
    }
  }
  return best
}

/** The next pieces, from shuffled bags of all seven, so no piece is missing for long. */
const refill = (queue: ReadonlyArray<number>, bags: number, seed: number): { queue: ReadonlyArray<number>; bags: number } => {
  let next = [...queue]
  let count = bags
  while (next.length < 5) {
    next = [...next, ...shuffled(Array.from({ length: PIECE_KINDS }, (_, i) => i), randomFor(seed, count))]
    count += 1
  }
  return { queue: next, bags: count }
}

const emptyBoard = (): Array<number> => new Array<number>(ALL_ROWS * BOARD_COLUMNS).fill(0)

/** Topped out: a fresh board, and play goes on. */
const topOut = (state: BlocksState): BlocksState => ({
  ...state, board: emptyBoard(), piece: null, target: null, phase: "waiting", timer: SPAWN_SECONDS,
  topouts: state.topouts + 1
})

const spawnPiece = (state: BlocksState): BlocksState => {
  const { queue, bags } = refill(state.queue.slice(1), state.bags, state.seed)
  const kind = state.queue[0]!
  // Pieces appear in the top rows of the board (the I piece's one row in its box's second row).
  const piece: Piece = { kind, rotation: 0, x: kind === 3 ? 4 : 3, y: kind === 0 ? HIDDEN_ROWS - 1 : HIDDEN_ROWS }
  if (!fits(state.board, piece)) return topOut(state)
  const random = randomFor(state.seed ^ 0x68e31da4, state.pieces)
  return {
    ...state, piece, queue, bags, target: plan(state.board, piece), hardDrop: random() < 0.4, phase: "falling",
    timer: MOVE_SECONDS * (1 + random()), gravityTimer: gravitySeconds(state.level), lockTimer: 0, pieces: state.pieces + 1
  }
}

const lock = (state: BlocksState, piece: Piece, from = piece.y): BlocksState => {
  const board = place(state.board, piece)
  const rows = fullRows(board)
  const landed = { piece, from, time: state.time }
  if (rows.length === 0) return { ...state, board, piece: null, target: null, phase: "waiting", timer: SPAWN_SECONDS, landed }
  const lines = state.lines + rows.length
  return {
    ...state, board, piece: null, target: null, phase: "clearing", timer: CLEAR_SECONDS, clearing: rows, landed,
    score: state.score + LINE_POINTS[rows.length]! * state.level, lines, level: 1 + Math.floor(lines / 10),
    events: [...state.events, { kind: "clear", time: state.time, x: 0, y: Math.min(...rows), z: 0, value: rows.length }]
  }
}

/** One move toward the plan: rotate first (with a small kick if the wall is in the way), then slide. */
const move = (state: BlocksState, piece: Piece): Piece | "aligned" => {
  const target = state.target ?? piece
  if (piece.rotation !== target.rotation) {
    const turned = { ...piece, rotation: (piece.rotation + 1) % 4 }
    return [0, -1, 1, -2, 2].map((dx) => ({ ...turned, x: turned.x + dx })).find((p) => fits(state.board, p)) ?? "aligned"
  }
  if (piece.x !== target.x) {
    const slid = { ...piece, x: piece.x + Math.sign(target.x - piece.x) }
    return fits(state.board, slid) ? slid : "aligned"
  }
  return "aligned"
}

const fall = (state: BlocksState, h: number, piece: Piece): BlocksState => {
  let p = piece
  let { timer, gravityTimer, lockTimer, score } = state
  let aligned = false
  timer -= h
  if (timer <= 0) {
    const moved = move(state, p)
    aligned = moved === "aligned"
    if (moved !== "aligned") p = moved
    timer += MOVE_SECONDS
  }
  if (aligned && state.hardDrop) {
    const landed = landing(state.board, p)
    score += 2 * (landed.y - p.y)
    return lock({ ...state, score }, landed, p.y)
  }
  const dropping = aligned || (state.target !== null && p.rotation === state.target.rotation && p.x === state.target.x)
  gravityTimer -= h
  if (gravityTimer <= 0) {
    gravityTimer += dropping ? SOFT_DROP_SECONDS : gravitySeconds(state.level)
    const down = { ...p, y: p.y + 1 }
    if (fits(state.board, down)) {
      p = down
      if (dropping) score += 1
      lockTimer = 0
    }
  }
  if (!fits(state.board, { ...p, y: p.y + 1 })) {
    lockTimer += h
    if (lockTimer >= (dropping ? LOCK_SECONDS / 2 : LOCK_SECONDS)) return lock({ ...state, score }, p)
  }
  return { ...state, piece: p, timer, gravityTimer, lockTimer, score }
}

const tick = (previous: BlocksState, h: number): BlocksState => {
  const state = { ...previous, time: previous.time + h, events: recentEvents(previous.events, previous.time + h) }
  if (state.phase === "falling" && state.piece !== null) return fall(state, h, state.piece)
  const timer = state.timer - h
  if (timer > 0) return { ...state, timer }
  if (state.phase === "clearing") return spawnPiece({ ...state, board: withoutRows(state.board, state.clearing), clearing: [] })
  return spawnPiece(state)
}

const start = (seed: number): BlocksState => {
  const { queue, bags } = refill([], 0, seed)
  return spawnPiece({
    seed, time: 0, board: emptyBoard(), piece: null, target: null, hardDrop: false,
    queue, bags, phase: "waiting", timer: 0, gravityTimer: 0, lockTimer: 0, clearing: [], landed: null, score: 0, lines: 0, level: 1,
    pieces: 0, topouts: 0, events: []
  })
}

export const blocks = fixedTicks(start, tick)
