/// A mistake in what a person typed, in a sentence.
///
/// Some mistakes are mended by reading the scope's list of words: where that list is depends on
/// where the person typed — `help` in a window, `concord words SCOPE` on the command line — so
/// such an error says it last, in the words of the place that shows it.
///
/// ```swift
/// throw CommandError.seeTheList("no command \"halp\"; did you mean `help`?")
/// error.description                                      // … (`help` lists them)
/// error.described(listedBy: "`concord words board`")     // … (`concord words board` lists them)
/// ```
public struct CommandError: Error, Sendable, CustomStringConvertible {
  /// The sentence about the mistake, without where the scope's words are listed.
  public let sentence: String
  /// Whether the scope's list of words mends it.
  public let pointsToTheList: Bool

  /// A mistake described by `description`, which a window shows where the outcome goes.
  public init(_ description: String) {
    sentence = description
    pointsToTheList = false
  }

  init(sentence: String, pointsToTheList: Bool) {
    self.sentence = sentence
    self.pointsToTheList = pointsToTheList
  }

  /// A mistake the scope's list of words mends (a command that does not exist, an action that
  /// is none of the scope's).
  public static func seeTheList(_ sentence: String) -> CommandError {
    CommandError(sentence: sentence, pointsToTheList: true)
  }

  /// The sentence as a window shows it: `help` is where the words are listed.
  public var description: String { described(listedBy: "`help`") }

  /// The sentence, pointing to `place` for the list of words when the list mends it.
  ///
  /// - Parameter place: where the person finds the scope's words, in backquotes.
  public func described(listedBy place: String) -> String {
    pointsToTheList ? "\(sentence) (\(place) lists them)" : sentence
  }

  /// The same mistake with more said before it (`sentence` becomes `prefix + sentence`).
  func prefixed(_ prefix: String) -> CommandError {
    CommandError(sentence: prefix + sentence, pointsToTheList: pointsToTheList)
  }
}
