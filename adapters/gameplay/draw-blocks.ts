// The falling-blocks puzzle: a glowing board of bevelled blocks, the falling piece with its ghost below,
// hard-drop trails, rows flashing away with bursts of shards, the next pieces, score, level and lines.
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas"
import {
  BOARD_COLUMNS,
  BOARD_ROWS,
  type BlocksState,
  cellsOf,
  CLEAR_SECONDS,
  HIDDEN_ROWS,
  landing,
  PIECE_KINDS,
  pieceCells
} from "../../domain/games/blocks.ts"
import { randomFor } from "../../domain/gameplay.ts"
import { burst, gameText, keyOf, padded, type PainterFactory, panel, sprite } from "./game-kit.ts"

/** I, J, L, O, S, T, Z in their usual colours, brightened. */
const PIECE_COLOURS = ["#22e4ff", "#2f6bff", "#ff9d1c", "#ffe01c", "#3ef05a", "#c04dff", "#ff3b5c"]
const CLEAR_NAMES = ["", "SINGLE", "DOUBLE", "TRIPLE", "TETRIS!"]

/** A bevelled block: lit top-left edge, shaded bottom-right, a gloss spot. */
const block = (size: number, colour: string): Canvas =>
  sprite(size, size, (ctx) => {
    const b = Math.max(2, size * 0.14)
    ctx.fillStyle = colour
    ctx.fillRect(0, 0, size, size)
    ctx.fillStyle = "rgba(255,255,255,0.55)"
    ctx.beginPath()
    ctx.moveTo(0, 0)
    ctx.lineTo(size, 0)
    ctx.lineTo(size - b, b)
    ctx.lineTo(b, b)
    ctx.lineTo(b, size - b)
    ctx.lineTo(0, size)
    ctx.fill()
    ctx.fillStyle = "rgba(0,0,0,0.35)"
    ctx.beginPath()
    ctx.moveTo(size, size)
    ctx.lineTo(0, size)
    ctx.lineTo(b, size - b)
    ctx.lineTo(size - b, size - b)
    ctx.lineTo(size - b, b)
    ctx.lineTo(size, 0)
    ctx.fill()
    ctx.fillStyle = "rgba(255,255,255,0.35)"
    ctx.fillRect(b * 1.5, b * 1.5, size * 0.25, size * 0.12)
  })

export const blocksPainter: PainterFactory<BlocksState> = (width, height, seed) => {
  const u = Math.min(width / 540, height / 960)
  const cell = Math.floor(Math.min((width - 170 * u) / BOARD_COLUMNS, (height - 250 * u) / BOARD_ROWS))
  const boardW = cell * BOARD_COLUMNS
  const boardH = cell * BOARD_ROWS
  const left = Math.round((width - boardW - 140 * u) / 2)
  const top = Math.round(height - boardH - 40 * u)
  const side = left + boardW + 16 * u
  const small = Math.round(cell * 0.55)
  const blocks = PIECE_COLOURS.map((c) => block(cell, c))
  const previews = PIECE_COLOURS.map((c) => block(small, c))
  const white = block(cell, "#ffffff")
  const random = randomFor(seed, 3)
  const hue = [265, 225, 295, 320, 200, 245][Math.floor(random() * 6)]!

  const background = sprite(width, height, (ctx) => {
    const g = ctx.createLinearGradient(0, 0, width, height)
    g.addColorStop(0, `hsl(${hue}, 80%, 34%)`)
    g.addColorStop(1, `hsl(${(hue + 70) % 360}, 85%, 16%)`)
    ctx.fillStyle = g
    ctx.fillRect(0, 0, width, height)
  })
  const boardFace = sprite(boardW + 16 * u, boardH + 16 * u, (ctx) => {
    const m = 8 * u
    ctx.fillStyle = `hsla(${(hue + 40) % 360}, 100%, 70%, 0.45)`
    ctx.beginPath()
    ctx.roundRect(0, 0, boardW + 2 * m, boardH + 2 * m, 10 * u)
    ctx.fill()
    ctx.fillStyle = "rgba(8,6,24,0.92)"
    ctx.fillRect(m, m, boardW, boardH)
    ctx.strokeStyle = "rgba(255,255,255,0.06)"
    ctx.lineWidth = 1
    ctx.beginPath()
    for (let x = 1; x < BOARD_COLUMNS; x++) {
      ctx.moveTo(m + x * cell + 0.5, m)
      ctx.lineTo(m + x * cell + 0.5, m + boardH)
    }
    for (let y = 1; y < BOARD_ROWS; y++) {
      ctx.moveTo(m, m + y * cell + 0.5)
      ctx.lineTo(m + boardW, m + y * cell + 0.5)
    }
    ctx.stroke()
  })
  /** Floating squares drifting up behind the board, so the picture never stands still. */
  const floaters = Array.from({ length: 16 }, (_, i) => {
    const r = randomFor(seed ^ 0x61c88647, i)
    return { x: r() * width, y: r() * height, size: (30 + r() * 80) * u, speed: (30 + r() * 60) * u, spin: (r() - 0.5) * 1.2, colour: PIECE_COLOURS[i % PIECE_KINDS]! }
  })

  return (ctx: SKRSContext2D, state: BlocksState) => {
    ctx.drawImage(background, 0, 0)
    for (const f of floaters) {
      const y = ((f.y - state.time * f.speed) % (height + f.size * 2) + height + f.size * 2) % (height + f.size * 2) - f.size
      ctx.save()
      ctx.translate(f.x, y)
      ctx.rotate(state.time * f.spin)
      ctx.globalAlpha = 0.2
      ctx.fillStyle = f.colour
      ctx.fillRect(-f.size / 2, -f.size / 2, f.size, f.size)
      ctx.restore()
    }
    ctx.globalAlpha = 1

    // A hard drop jolts the board.
    const landedAge = state.landed === null ? Infinity : state.time - state.landed.time
    const dropped = state.landed !== null && state.landed.piece.y - state.landed.from > 1
    const jolt = dropped && landedAge < 0.15 ? Math.sin((landedAge / 0.15) * Math.PI) * 6 * u : 0
    ctx.save()
    ctx.translate(0, jolt)
    ctx.drawImage(boardFace, left - 8 * u, top - 8 * u)

    const cellX = (x: number) => left + x * cell
    const cellY = (y: number) => top + (y - HIDDEN_ROWS) * cell
    const clearing = new Set(state.clearing)
    const clearProgress = state.phase === "clearing" ? 1 - state.timer / CLEAR_SECONDS : 0
    for (let y = HIDDEN_ROWS; y < BOARD_ROWS + HIDDEN_ROWS; y++) {
      for (let x = 0; x < BOARD_COLUMNS; x++) {
        const v = state.board[y * BOARD_COLUMNS + x]!
        if (v === 0) continue
        if (clearing.has(y)) {
          // Cleared rows flash white and shrink away from the middle out.
          const delay = (Math.abs(x - 4.5) / 5) * 0.4
          const p = Math.max(0, Math.min(1, (clearProgress - delay) / 0.6))
          const s = cell * (1 - p)
          if (s > 0.5) ctx.drawImage(p > 0 || Math.floor(state.time * 20) % 2 === 0 ? white : blocks[v - 1]!, cellX(x) + (cell - s) / 2, cellY(y) + (cell - s) / 2, s, s)
        } else ctx.drawImage(blocks[v - 1]!, cellX(x), cellY(y))
      }
    }

    // The trail of a hard drop, and a flash on the piece that just landed.
    if (state.landed !== null && landedAge < 0.3) {
      const { piece, from } = state.landed
      const fade = 1 - landedAge / 0.3
      for (const [x, y] of cellsOf(piece)) {
        if (y < HIDDEN_ROWS) continue
        if (dropped) {
          const trailTop = cellY(Math.max(HIDDEN_ROWS, from + (y - piece.y)))
          const g = ctx.createLinearGradient(0, trailTop, 0, cellY(y))
          g.addColorStop(0, "rgba(255,255,255,0)")
          g.addColorStop(1, `rgba(255,255,255,${0.45 * fade})`)
          ctx.fillStyle = g
          ctx.fillRect(cellX(x) + cell * 0.1, trailTop, cell * 0.8, cellY(y) - trailTop)
        }
        ctx.globalAlpha = 0.6 * fade
        ctx.drawImage(white, cellX(x), cellY(y))
        ctx.globalAlpha = 1
      }
    }

    if (state.piece !== null) {
      const ghost = landing(state.board, state.piece)
      ctx.strokeStyle = PIECE_COLOURS[state.piece.kind]!
      ctx.lineWidth = Math.max(1.5, cell * 0.08)
      ctx.globalAlpha = 0.55
      for (const [x, y] of cellsOf(ghost)) {
        if (y >= HIDDEN_ROWS) ctx.strokeRect(cellX(x) + cell * 0.1, cellY(y) + cell * 0.1, cell * 0.8, cell * 0.8)
      }
      ctx.globalAlpha = 1
      for (const [x, y] of cellsOf(state.piece)) {
        if (y >= HIDDEN_ROWS) ctx.drawImage(blocks[state.piece.kind]!, cellX(x), cellY(y))
      }
    }
    ctx.restore()

    // Shards from cleared lines and the name of the clear.
    for (const e of state.events) {
      const age = state.time - e.time
      if (e.kind !== "clear") continue
      for (let row = 0; row < e.value; row++) {
        for (let k = 0; k < 4; k++) {
          burst(ctx, {
            key: keyOf(e.time, row, k), x: left + boardW * (k + 0.5) / 4, y: cellY(e.y + row) + cell / 2, age: age - 0.2, life: 0.9,
            count: 6, speed: 420 * u, gravity: 900 * u, size: cell * 0.35, colours: PIECE_COLOURS, square: true
          })
        }
      }
      if (age < 1.2) {
        const pop = 1 + Math.max(0, 0.25 - age) * 2
        ctx.globalAlpha = Math.min(1, (1.2 - age) * 3)
        gameText(ctx, CLEAR_NAMES[e.value] ?? "", left + boardW / 2, top + boardH * 0.35 - age * 40 * u, (e.value >= 4 ? 58 : 44) * u * pop, e.value >= 4 ? "#ffe01c" : "#ffffff", "center")
        ctx.globalAlpha = 1
      }
    }

    // HUD: score on top; next pieces, level and lines down the side.
    panel(ctx, width / 2 - 150 * u, 22 * u, 300 * u, 92 * u, "rgba(10,8,30,0.6)")
    gameText(ctx, "SCORE", width / 2, 44 * u, 20 * u, "#9ad1ff", "center")
    gameText(ctx, padded(state.score, 7), width / 2, 82 * u, 44 * u, "#ffffff", "center")
    const boxW = width - side - 12 * u
    ctx.fillStyle = "rgba(10,8,30,0.6)"
    ctx.beginPath()
    ctx.roundRect(side, top, boxW, small * 10.5, 12 * u)
    ctx.fill()
    gameText(ctx, "NEXT", side + boxW / 2, top + 20 * u, 20 * u, "#9ad1ff", "center")
    state.queue.slice(0, 3).forEach((kind, i) => {
      const cells = pieceCells(kind, 0)
      const minX = Math.min(...cells.map(([x]) => x))
      const maxX = Math.max(...cells.map(([x]) => x))
      const minY = Math.min(...cells.map(([, y]) => y))
      const maxY = Math.max(...cells.map(([, y]) => y))
      const ox = side + boxW / 2 - ((maxX - minX + 1) * small) / 2
      const oy = top + 40 * u + i * small * 3.1 + (2 - (maxY - minY + 1)) * small / 2
      for (const [x, y] of cells) ctx.drawImage(previews[kind]!, ox + (x - minX) * small, oy + (y - minY) * small)
    })
    const stat = (label: string, value: string, y: number) => {
      ctx.fillStyle = "rgba(10,8,30,0.6)"
      ctx.beginPath()
      ctx.roundRect(side, y, boxW, 78 * u, 12 * u)
      ctx.fill()
      gameText(ctx, label, side + boxW / 2, y + 22 * u, 18 * u, "#9ad1ff", "center")
      gameText(ctx, value, side + boxW / 2, y + 54 * u, 32 * u, "#ffffff", "center")
    }
    stat("LEVEL", String(state.level), top + small * 10.5 + 14 * u)
    stat("LINES", String(state.lines), top + small * 10.5 + 106 * u)
  }
}
