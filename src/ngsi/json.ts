// A broker's JSON body → its value, without one string of the whole body when the body is a large
// array of objects (every entity query answers one). V8 gives each large string a memory area of
// its own, freshly mapped, so decoding and parsing a page whole costs more than parsing it in
// pieces (figures: docs/performance.md).
//
// A piece ends at a "},{" found natively (no byte-by-byte scan in JavaScript) and is parsed alone
// as "[piece]". That "},{" may lie inside a string or a nested array; then the piece is not valid
// JSON and the next "},{" is tried. A piece that parses is a whole list of elements, so its comma
// separates two elements of the outer array: the pieces give exactly the value, and the refusals,
// of JSON.parse of the whole text.

const PIECE_BYTES = 32 * 1024
/** Cuts tried in a row that fell inside a string or a nested value before the rest is parsed whole. */
const MAX_MISSES = 3
const BETWEEN_OBJECTS = Buffer.from('},{')
const OPEN = 0x5b
const CLOSE = 0x5d

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** Nothing but JSON whitespace (an empty body included). */
export const isBlank = (bytes: Uint8Array) => bytes.every(isWhitespace)

/** Positions of the first and last non-whitespace bytes (start > end when there are none). */
function trimmed(bytes: Buffer): { start: number; end: number } {
  let start = 0
  while (start < bytes.length && isWhitespace(bytes[start])) start++
  let end = bytes.length - 1
  while (end > start && isWhitespace(bytes[end])) end--
  return { start, end }
}

/**
 * The elements of the JSON array `bytes` hold, parsed a piece at a time as the caller reads on:
 * only the piece being read exists as objects. Undefined when the text is not an array. A fault
 * in the text throws JSON.parse's SyntaxError when the reader reaches it (pieces before it have
 * been read). `bytes` are borrowed: the same bytes again between pieces and at the end.
 */
export function arrayPieces(bytes: Buffer): Iterable<unknown[]> | undefined {
  const { start, end } = trimmed(bytes)
  // An array shorter than a piece is parsed in one go (no cut is found past PIECE_BYTES).
  return bytes[start] === OPEN && bytes[end] === CLOSE ? pieces(bytes, start, end) : undefined
}

function* pieces(bytes: Buffer, start: number, end: number): Generator<unknown[]> {
  // The piece as "[piece]" in one string: the bytes either side of it (a "[", "," or "]") are
  // lent the brackets and given back. `[${text}]` would copy every piece a second time.
  const parse = (from: number, to: number): unknown[] => {
    const before = bytes[from - 1]
    const after = bytes[to]
    bytes[from - 1] = OPEN
    bytes[to] = CLOSE
    try {
      return JSON.parse(bytes.toString('utf8', from - 1, to + 1)) as unknown[]
    } finally {
      bytes[from - 1] = before
      bytes[to] = after
    }
  }
  let from = start + 1
  let searchFrom = from + PIECE_BYTES
  let misses = 0
  for (;;) {
    const boundary = misses < MAX_MISSES ? bytes.indexOf(BETWEEN_OBJECTS, searchFrom) : -1
    if (boundary === -1 || boundary + BETWEEN_OBJECTS.length > end) {
      yield parse(from, end)
      return
    }
    const cut = boundary + 1
    let piece: unknown[] | undefined
    try {
      piece = parse(from, cut)
    } catch {
      misses++
      searchFrom = cut
      continue
    }
    yield piece
    misses = 0
    from = cut + 1
    searchFrom = from + PIECE_BYTES
  }
}

/** JSON.parse of the UTF-8 text `bytes` hold (borrowed: the same bytes again when it returns or throws). */
export function parseJsonBytes(bytes: Buffer): unknown {
  const array = arrayPieces(bytes)
  if (!array) return JSON.parse(bytes.toString('utf8'))
  const elements: unknown[] = []
  for (const piece of array) for (const element of piece) elements.push(element)
  return elements
}
