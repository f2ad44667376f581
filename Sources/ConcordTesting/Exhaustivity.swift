/// How much a ``TestStore`` insists on.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change must be asserted, every action an effect sends must be received, and no
  /// effect may still be running at the end. The default.
  case on
  /// Assert only what the test cares about: an assertion checks just the fields it sets,
  /// unasserted received actions are skipped, and effects left running are cancelled.
  case off
}
