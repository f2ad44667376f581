import ConcordJSON
import ConcordText

extension JSONValue {
  /// The value with every string in it, keys too, drawable (``InertText/shown(_:)``): what a
  /// window hands a scope's renderer, so that no renderer, the app's or the generic one, can
  /// pass another person's control characters to the terminal. The value itself when none
  /// holds one (the usual case costs a scan, not a copy).
  ///
  /// ```swift
  /// JSONValue.object(["title": "esc\u{1B}[31m"]).inert   // {"title": "esc␛[31m"}
  /// ```
  public var inert: JSONValue { holdsControls ? inertCopy : self }

  private var holdsControls: Bool {
    switch self {
    case let .string(text): InertText.holdsControls(text)
    case let .array(elements): elements.contains { $0.holdsControls }
    case let .object(members): members.contains { InertText.holdsControls($0.key) || $0.value.holdsControls }
    default: false
    }
  }

  /// Made once something is known to need it: every string through ``InertText/shown(_:)``,
  /// which returns one without controls as it is (no second scan of each subtree).
  private var inertCopy: JSONValue {
    switch self {
    case let .string(text): .string(InertText.shown(text))
    case let .array(elements): .array(elements.map(\.inertCopy))
    case let .object(members):
      .object(Dictionary(members.map { (InertText.shown($0.key), $0.value.inertCopy) }, uniquingKeysWith: { first, _ in first }))
    default: self
    }
  }
}
