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
    //
    // Why the text, read as JSON, is not an action of the scope: it is not JSON, or it is JSON
    // that is not one of the scope's actions (checked before it is queued, so a malformed action
    // is a usage error now rather than a refusal later, or an action waiting offline for a
    // daemon that will turn it away).
    var jsonProblem: String?
    let window = try ClientApp.current.window(for: scope)
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("\"") {
      var parsed: JSONValue?
      do {
        parsed = try JSONValue(parsing: trimmed)
      } catch {
        jsonProblem = "the action is not valid JSON (\(error))"
      }
      if let json = parsed {
        do {
          try window.check?(json)
          return json
        } catch {
          // A JSON object is meant as an action: one that is none is a mistake, never words to
          // say. (A quoted word or a bracket may start a chat line: those are read as words.)
          let problem = "not an action of \(scope): \(WireCoding.describe(error))"
          if case .object = json { throw CommandFailure.usage(problem) }
          jsonProblem = problem
        }
      }
    }
    do {
      return try window.parse(trimmed)
    } catch {
      if let jsonProblem { throw CommandFailure.usage("\(jsonProblem), nor \(error)") }
      throw CommandFailure.usage("\(error)")
    }
  }
}
