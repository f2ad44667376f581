/// A mistake in what a person typed, in a sentence.
public struct CommandError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
