import ArgumentParser
import ConcordDaemonCommand
import ConcordJSON
import ConcordReplay
import Foundation

/// The filters of `inspect`, as options; each one given narrows what is shown.
struct EntryFilterOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Only this person's entries.", valueName: "USER"))
  var user: String?

  @Option(help: ArgumentHelp("Only this scope (card:7), or every scope a prefix ending in a colon begins (card:).", valueName: "SCOPE"))
  var scope: String?

  @Option(help: ArgumentHelp("Only applied, or only refused, entries.", valueName: "applied|refused"))
  var outcome: String?

  @Option(help: ArgumentHelp("Only entries at or after this time (RFC 3339, such as 2026-12-01T09:00:00Z).", valueName: "TIME"))
  var since: String?

  @Option(help: ArgumentHelp("Only entries before this time.", valueName: "TIME"))
  var until: String?

  @Option(help: ArgumentHelp("Only entries whose action, or the app's words for it, contains this text (any case).", valueName: "TEXT"))
  var text: String?

  /// The filter the options describe; a usage error for a value it cannot take.
  func filter() throws -> EntryFilter {
    var filter = EntryFilter()
    filter.user = user
    filter.scope = scope
    if let outcome {
      guard let chosen = EntryFilter.Outcome(rawValue: outcome) else {
        throw CommandFailure.usage("--outcome takes applied or refused, not \"\(outcome)\"")
      }
      filter.outcome = chosen
    }
    filter.since = try since.map { try Self.time($0, for: "--since") }
    filter.until = try until.map { try Self.time($0, for: "--until") }
    filter.text = text
    return filter
  }

  /// The options as the same command on the server takes them.
  var arguments: [String] {
    var arguments: [String] = []
    if let user { arguments += ["--user", user] }
    if let scope { arguments += ["--scope", scope] }
    if let outcome { arguments += ["--outcome", outcome] }
    if let since { arguments += ["--since", since] }
    if let until { arguments += ["--until", until] }
    if let text { arguments += ["--text", text] }
    return arguments
  }

  /// A time as a person types one: any RFC 3339 timestamp; a usage error naming the option
  /// otherwise.
  static func time(_ text: String, for option: String) throws -> Date {
    do {
      return try JSONDate.date(from: text)
    } catch {
      throw CommandFailure.usage("\(option) takes a time such as 2026-12-01T09:00:00Z, not \"\(text)\"")
    }
  }
}
