/// Why a `StateDiff` could not be applied: it does not fit the state it was applied to.
///
/// A window that gets this error has a state that drifted from the daemon's; it asks for the
/// whole state again rather than guessing.
///
/// ```swift
/// let diff = StateDiff(operations: [.remove(path: ["cards", .id(7)])])
/// do { _ = try diff.apply(to: ["cards": []]) } catch { print(error) }
/// // operation 1 of 1 (remove ["cards",{"id":7}]): ["cards"] has no element with id 7
/// ```
public struct DiffError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What did not fit, in words.
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
