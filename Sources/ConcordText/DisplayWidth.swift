import CCellWidth
import Foundation

/// How many terminal cells text takes: 2 for CJK and emoji, 0 for what draws nothing of its own
/// (combining marks, joiners, variation selectors), 1 for the rest — each Unicode scalar as the C
/// library's `wcwidth` counts it, which is how the terminal library places text and how terminals
/// such as tmux, xterm and VTE draw it, so that columns line up.
///
/// A character (a grapheme cluster: a letter with its accents, a flag, an emoji with a skin tone
/// or a ZWJ family) is measured and cut as a whole, never in the middle. Terminals that draw a
/// ZWJ family or a skin tone as one picture show it narrower than it is counted here; the columns
/// then have a gap, never an overlap.
///
/// ```swift
/// DisplayWidth.of("日本")        // 4
/// DisplayWidth.of("e\u{301}")    // 1
/// DisplayWidth.of("🇯🇵")          // 2
/// ```
public enum DisplayWidth {
  /// The cells of `text`.
  public static func of(_ text: some StringProtocol) -> Int {
    // Printable ASCII, the common case, is one cell a byte: no grapheme breaking needed.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    // A character's cells are its scalars' (below): the sum over the text's scalars is the sum
    // over its characters, without breaking it into characters.
    return text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// The cells of one scalar, as part of a character.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F ? 0 : 1 }
    if scalar.value < 0x10000 { return Int(basicPlane[Int(scalar.value)]) }
    // Controls and unassigned scalars (-1) are never drawn as they are.
    return max(0, Int(concord_cell_width(scalar.value)))
  }

  /// The cells of every scalar of the Basic Multilingual Plane, asked of the C library once:
  /// measuring is on every redraw's path, and the library's answer does not change.
  private static let basicPlane: [UInt8] = (0..<0x10000).map { value in
    // Surrogates are no scalars; the C library counts them as nothing drawn.
    UInt8(max(0, concord_cell_width(UInt32(value))))
  }

  /// The cells of one character.
  public static func of(_ character: Character) -> Int {
    character.unicodeScalars.reduce(0) { $0 + of($1) }
  }
}
