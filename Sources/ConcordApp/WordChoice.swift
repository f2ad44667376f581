/// A word Tab can complete to, with what it names: a card's number with its title.
///
/// ```swift
/// WordChoice("7", note: "Fix login")
/// ```
public struct WordChoice: Sendable, Equatable {
  public var word: String
  /// Shown beside the word when the choices are listed.
  public var note: String?

  public init(_ word: String, note: String? = nil) {
    self.word = word
    self.note = note
  }
}
