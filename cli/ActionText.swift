import ConcordClient
import ConcordWire
import Foundation

/// Turns what a person typed into a scope's action.
enum ActionText {
  static func parse(_ text: String, scope: String) throws -> JSONValue {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("\"") {
      do {
        return try JSONValue(parsing: trimmed)
      } catch {
        throw CommandFailure.usage("the action is not valid JSON: \(error)")
      }
    }
    let window = try ClientApp.current.window(for: scope)
    do {
      return try window.parse(trimmed)
    } catch {
      throw CommandFailure.usage("\(error)")
    }
  }
}
