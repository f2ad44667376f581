extension Board {
  /// What undo says it did, in the feed and in the window that typed it: `undid: moved #2 Fix
  /// login from todo to done`.
  ///
  /// - Parameters:
  ///   - change: the words of the change taken back (``lastChange`` of the board it was made
  ///     on); nil for a change made before boards kept them.
  ///   - whose: whose change, for when its words are unknown: `their` in the feed, `your` in
  ///     the window of the person who typed it.
  public static func undid(_ change: String?, whose: String = "their") -> String {
    change.map { "undid: \($0)" } ?? "undid \(whose) last change"
  }

  /// What redo says it did: `redid: moved #2 Fix login from todo to done`.
  ///
  /// - Parameters:
  ///   - change: the words of the change put back; nil when unknown.
  ///   - whose: whose change, for when its words are unknown.
  public static func redid(_ change: String?, whose: String = "their") -> String {
    change.map { "redid: \($0)" } ?? "redid \(whose) change"
  }
}
