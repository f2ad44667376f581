import ConcordApp
import ConcordClient
import ConcordWire
import Foundation

/// Turns what a person typed into a scope's action.
enum ActionText {
  static func parse(_ text: String, scope: String) throws -> JSONValue {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    // JSON when it is JSON; otherwise the scope's words, which may start like JSON too (a chat
    // line `[wip] see #3`, or `"LGTM" from bob`).
    var jsonError: (any Error)?
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("\"") {
      do {
        return try JSONValue(parsing: trimmed)
      } catch {
        jsonError = error
      }
    }
    let window = try ClientApp.current.window(for: scope)
    do {
      return try window.parse(trimmed)
    } catch {
      if let jsonError { throw CommandFailure.usage("the action is not valid JSON (\(jsonError)), nor \(error)") }
      throw CommandFailure.usage("\(error)")
    }
  }
}
