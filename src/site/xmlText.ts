// XML 1.0 has no C0 control but tab, LF and CR, no U+FFFE/U+FFFF and no lone surrogate: one in a
// post's text made the whole news feed unreadable to every reader.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** `text` without the characters an XML document cannot hold. */
export const xmlText = (text: string) => text.replace(NOT_XML_CHARACTER, '')
