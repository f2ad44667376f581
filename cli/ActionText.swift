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
    let name = scope.split(separator: ":").first.map(String.init) ?? scope
    guard let window = ClientApp.current.scope(named: name) else {
      throw CommandFailure.usage("no scope \"\(name)\"; the scopes are \(ClientApp.current.scopes.map(\.name).joined(separator: ", "))")
    }
    do {
      return try window.parse(trimmed)
    } catch {
      throw CommandFailure.usage("\(error)")
    }
  }
}
