/// Text from other people, made safe to draw: a control character in it (an escape, a bell, a
/// newline, a C1 control, a bidirectional override) is shown as a visible sign and never
/// reaches a terminal as a control. Every window draws what it did not write itself through
/// this, so that nobody's title or message can colour, move, retitle or split anyone's screen.
///
/// ```swift
/// InertText.shown("esc\u{1B}[31mred")   // "esc␛[31mred": one cell for the escape, as a sign
/// InertText.shown("two\nlines")         // "two␊lines"
/// InertText.firstControl(in: "fine")    // nil
/// ```
public enum InertText {
  /// Whether `scalar` would act on a terminal rather than be drawn: C0 controls, DEL, C1
  /// controls, the line and paragraph separators and the bidirectional embeddings, overrides
  /// and isolates.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The first control character of `text` but those `allowed`, nil when there is none: what
  /// the daemon asks of every text of every action, so text without any costs a scan of its
  /// bytes and no allocation.
  ///
  /// - Parameters:
  ///   - text: the text.
  ///   - allowed: controls the text may hold (a description's newlines and tabs).
  public static func firstControl(in text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Unicode.Scalar? {
    guard holdsControls(text) else { return nil }
    return text.unicodeScalars.first { isControl($0) && !allowed.contains($0) }
  }

  /// Whether `text` holds a control character: found by its bytes first, as most text has
  /// none (every one begins with a byte below 0x20, 0x7F, or the lead byte 0xC2 or 0xE2).
  public static func holdsControls(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 } && text.unicodeScalars.contains(where: isControl)
  }

  /// `text` with each control character as a visible sign: C0 controls and DEL as their
  /// Unicode control pictures (`␛`, `␊`, `␇`, `␡`: one cell each, so columns stay aligned), the
  /// others as their code point (`<U+0085>`). Text without any is returned as it is.
  public static func shown(_ text: String) -> String {
    guard holdsControls(text) else { return text }
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F: shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
      case 0x7F: shown.append("\u{2421}")
      case _ where isControl(scalar): shown.append(contentsOf: name(of: scalar).unicodeScalars)
      default: shown.append(scalar)
      }
    }
    return String(shown)
  }

  /// A control character by its code point, as it is shown where it has no picture: `<U+0085>`.
  public static func name(of scalar: Unicode.Scalar) -> String {
    "<U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))>"
  }
}

extension String {
  fileprivate func leftPadded(to count: Int) -> String {
    self.count >= count ? self : String(repeating: "0", count: count - self.count) + self
  }
}
