/// A word Tab can complete to, with what it names: a card's number with its title.
///
/// ```swift
/// WordChoice("7", note: "Fix login")
/// ```
public struct WordChoice: Sendable, Equatable {
  /// What Tab puts on the line.
  public var word: String
  /// Shown beside the word when the choices are listed.
  public var note: String?

  /// A choice.
  ///
  /// - Parameters:
  ///   - word: what Tab puts on the line.
  ///   - note: what it names, shown beside it.
  public init(_ word: String, note: String? = nil) {
    self.word = word
    self.note = note
  }
}
