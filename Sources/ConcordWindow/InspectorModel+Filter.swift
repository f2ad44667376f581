import ConcordJSON
import ConcordReplay
import Foundation

/// The inspector's filter as a person types it on the bottom line: words `NAME=VALUE`, any of
/// `user`, `scope`, `outcome`, `since`, `until`, `text` (the rest of the line after `text=`).
extension InspectorModel {
  /// Why a typed filter cannot be read, in a sentence.
  struct FilterError: Error, CustomStringConvertible {
    let description: String
  }

  /// The filter `typed` describes: `user=mallory scope=card: outcome=refused`.
  static func filter(from typed: String) throws -> EntryFilter {
    var filter = EntryFilter()
    var rest = Substring(typed.trimmingCharacters(in: .whitespaces))
    while !rest.isEmpty {
      if rest.hasPrefix("text=") {
        filter.text = String(rest.dropFirst(5))
        break
      }
      let word = rest.prefix { $0 != " " }
      rest = rest.dropFirst(word.count).drop { $0 == " " }
      guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
        throw FilterError(description: "a filter is NAME=VALUE (user, scope, outcome, since, until, text), not \"\(word)\"")
      }
      let name = word[..<equals]
      let value = String(word[word.index(after: equals)...])
      switch name {
      case "user": filter.user = value
      case "scope": filter.scope = value
      case "outcome":
        guard let outcome = EntryFilter.Outcome(rawValue: value) else {
          throw FilterError(description: "outcome= takes applied or refused, not \"\(value)\"")
        }
        filter.outcome = outcome
      case "since", "until":
        guard let time = try? JSONDate.date(from: value) else {
          throw FilterError(description: "\(name)= takes a time such as 2026-12-01T09:00:00Z, not \"\(value)\"")
        }
        if name == "since" { filter.since = time } else { filter.until = time }
      default:
        throw FilterError(description: "no filter \"\(name)\": the filters are user, scope, outcome, since, until and text")
      }
    }
    return filter
  }

  /// The filter as it is typed, to edit it.
  static func words(of filter: EntryFilter) -> String {
    filter.isEmpty ? "" : filter.summary
  }
}
