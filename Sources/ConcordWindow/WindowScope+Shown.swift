import ConcordApp
import ConcordClient
import ConcordWire
import Foundation

extension WindowScope {
  /// The scope as a session shows it (`shown`, for the person `user`), drawn `width` columns
  /// wide: the daemon's state with the actions still pending on top, marked as pending by the
  /// app's renderer. Nil before any state was seen.
  ///
  /// - Parameters:
  ///   - rows: the lines the window will show, when it knows; the renderer may leave the others
  ///     empty.
  ///   - pinned: how many first lines it shows as well (the header), whatever the scroll.
  public func lines(of shown: Shown?, user: String, width: Int, rows: Range<Int>? = nil, pinned: Int = 0) -> [String]? {
    guard let shown else { return nil }
    // The renderer gets text it may draw: another person's control characters as signs.
    let context = RenderContext<JSONValue>(
      width: width, confirmed: shown.pending.isEmpty ? nil : shown.confirmed.inert, user: user, shown: rows, pinned: pinned)
    return render(shown.state.inert, context)
  }
}

extension RefusedAction {
  /// One line for a person: where and what was refused first (a narrow window may wrap the
  /// rest), then why, and how to put it away.
  public var notice: String {
    // Drawn by the window through ``InertText``, as every outcome is.
    "✗ \(scope): `\(text)` was refused on replay: \(reason) · /dismiss"
  }
}
