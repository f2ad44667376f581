import Foundation
import ConcordWire

extension WindowScope {
  /// The action a person's line makes in `scope` (`board`, `card:1`): the line as JSON when it
  /// is one of the scope's actions, else read in the scope's words — which may start like JSON
  /// too (a chat line `[wip] see #3`, or `"LGTM" from bob`). A JSON object is always meant as an
  /// action, never as words: one that is not one of the scope's is a mistake.
  ///
  /// Checked before the action is queued, so a malformed one is a mistake now rather than a
  /// refusal later, or an action waiting offline for a daemon that will turn it away.
  ///
  /// ```swift
  /// try window.action(typed: #"{"increment":{}}"#, in: "counter")   // the JSON
  /// try window.action(typed: "add 5", in: "counter")               // {"add":{"amount":5}}
  /// ```
  ///
  /// - Throws: a ``CommandError`` saying what is wrong with the line.
  public func action(typed text: String, in scope: String) throws(CommandError) -> JSONValue {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    // Why the line, read as JSON, is not an action of the scope, when it starts like JSON.
    var jsonProblem: String?
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") || trimmed.hasPrefix("\"") {
      do {
        let json = try JSONValue(parsing: trimmed)
        do {
          try check?(json)
          return json
        } catch {
          let problem = (error as? CommandError) ?? Self.notAnAction(json, of: scope, error)
          if case .object = json { throw problem }
          jsonProblem = problem.sentence
        }
      } catch let error as CommandError {
        throw error
      } catch {
        jsonProblem = "the action is not valid JSON (\(error))"
      }
    }
    do {
      return try parse(trimmed)
    } catch {
      let wordsProblem = (error as? CommandError) ?? CommandError("\(error)")
      if let jsonProblem { throw wordsProblem.prefixed("\(jsonProblem), nor ") }
      throw wordsProblem
    }
  }

  /// Why `json` is not an action of `scope`, in the scope's terms: a member it does not take
  /// is not one of its actions (the list mends it); a field is named by its path, and a value
  /// by the JSON kind it should be — never by a type of the program.
  static func notAnAction(_ json: JSONValue, of scope: String, _ error: any Error) -> CommandError {
    if let decoding = error as? DecodingError, Self.isAboutTheActionItself(decoding) {
      var named = "that"
      if case let .object(members) = json, members.count == 1, let name = members.keys.first { named = "\"\(name)\"" }
      return .seeTheList("\(named) is not one of \(scope)'s actions")
    }
    return CommandError("that \(scope) action is not well formed: \(WireCoding.describe(error))")
  }

  /// True when the error is about which action it is (no member, several, an unknown one)
  /// rather than about a field inside it.
  private static func isAboutTheActionItself(_ error: DecodingError) -> Bool {
    switch error {
    case let .typeMismatch(_, context), let .dataCorrupted(context), let .valueNotFound(_, context):
      return context.codingPath.isEmpty
    case let .keyNotFound(_, context):
      return context.codingPath.isEmpty
    @unknown default:
      return false
    }
  }
}
