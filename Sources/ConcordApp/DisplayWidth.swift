import CCellWidth
import Foundation

/// How many terminal cells a character takes: 2 for CJK and emoji, 0 for nothing visible, 1 for
/// the rest — as the terminal's own `wcwidth` counts them, so that columns line up.
///
/// A character here is a grapheme cluster: an accented letter written with a combining mark, a
/// flag (two regional indicators), an emoji with a skin tone or a ZWJ family is one character, and
/// is measured and cut as a whole, never in the middle.
///
/// ```swift
/// DisplayWidth.of("日本")        // 4
/// DisplayWidth.of("e\u{301}")    // 1
/// DisplayWidth.of("👩‍👩‍👧")         // 2
/// ```
public enum DisplayWidth {
  /// The cells of `text`.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// The cells of one character: 0, 1 or 2.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.isASCII, scalars.count == 1 { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
    // An emoji sequence (ZWJ family, skin tone, a keycap or text symbol made emoji by VS16, a
    // flag) is drawn as one wide picture, whatever its first scalar alone would be.
    if scalars.count > 1,
      scalars.contains(where: { $0.value == 0x200D || $0.value == 0xFE0F || $0.properties.isEmojiModifier })
        || (0x1F1E6...0x1F1FF).contains(first.value)
    {
      return 2
    }
    let width = Int(concord_cell_width(first.value))
    // Controls and unassigned scalars: the window never draws them as they are.
    return max(0, width)
  }
}
