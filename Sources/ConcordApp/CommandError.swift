/// A mistake in what a person typed, in a sentence.
public struct CommandError: Error, Sendable, CustomStringConvertible {
  /// The sentence shown to the person, such as `no column "later"`.
  public var description: String
  /// A mistake described by `description`, which a window shows where the outcome goes.
  public init(_ description: String) { self.description = description }
}
