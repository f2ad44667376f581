// fuzz-words: what a person types into a window.
//
// The input is one typed line (UTF-8; invalid bytes become U+FFFD, as `readLine` makes them).
// Every Workspace scope's parser reads it (`Workspace.client`, `WindowScope.parse`, which splits
// it with `CommandWords` and reads due dates with `DueDateWords`); `DueDateWords.parse` also
// reads its words directly, in two time zones at fixed instants so that a finding replays.
// A CommandError is fine; a trap is a finding, and so is an action the daemon could not decode
// into the scope's action type, or `CommandWords` splitting a line without quotes differently
// from a plain split at whitespace.
import ConcordApp
import ConcordWire
import Foundation
import Workspace
import WorkspaceWindows

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size), as: UTF8.self)

  for scope in app.scopes {
    guard let action = try? scope.parse(text) else { continue }
    checkAction(action, of: scope.name, line: text)
  }

  let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
  for (calendar, now) in clocks {
    _ = try? DueDateWords.parse(words, now: now, calendar: calendar)
  }

  checkWords(text)
  return 0
}

/// An action a window sends must be one the daemon decodes into the scope's action type, and
/// that decodes to the same JSON again.
func checkAction(_ action: JSONValue, of scope: String, line: String) {
  let text = action.jsonText
  guard (try? JSONParser.parse(Array(text.utf8))) == action else { finding("an action's text changes it: \(text)") }
  let message = ClientMessage.send(scope: scope, action: action, client: "fuzz", cseq: 1)
  guard (try? ClientMessage(line: Array(message.line.utf8.dropLast()))) == message else {
    finding("a send of \(text) does not survive its line")
  }
  func reencoded<Action: Codable>(_ type: Action.Type) -> JSONValue? {
    do {
      return try JSONValue(encoding: try action.decode(Action.self))
    } catch {
      finding("the daemon cannot decode the \(scope) action \(text) typed as \(line.debugDescription): \(error)")
    }
  }
  let again: JSONValue?
  switch scope {
  case "board": again = reencoded(BoardAction.self)
  case "column": again = reencoded(ColumnAction.self)
  case "card": again = reencoded(CardAction.self)
  case "chat": again = reencoded(ChannelAction.self)
  default: again = nil
  }
  if let again, again != action {
    finding("the \(scope) action \(text) decodes as \(again.jsonText)")
  }
}

/// Without quotes, `CommandWords` is a split at whitespace. (`CommandWords(String)` is
/// internal: a probe scope reaches it as windows do, and reads every word of it and `raw`.)
func checkWords(_ text: String) {
  let line = "w " + text
  guard let action = try? probe.parse(line) else { return }
  guard let probed = try? action.decode(Probe.self) else { finding("the probe's action does not decode: \(action.jsonText)") }
  guard !line.contains("\""), !line.contains("'") else { return }
  let plain = line.split(whereSeparator: \.isWhitespace).map(String.init)
  guard plain.first == "w" else { return }  // the "w" joined what follows into one character
  guard probed.words == Array(plain.dropFirst()) else {
    finding("CommandWords split \(line.debugDescription) as \(probed.words), not \(Array(plain.dropFirst()))")
  }
}

struct Probe: Codable, Sendable {
  var words: [String]
  var raw: String
}

let probe = WindowScope.scope(
  "probe", render: { (_: [String], _) in [] },
  commands: [
    WindowCommand<Probe>("w", help: "the words") { words in
      // Every reader, so that each runs on every split.
      for index in 0...words.all.count {
        _ = try? words.word(index)
        _ = try? words.integer(index)
        _ = try? words.rest(from: index)
      }
      return Probe(words: words.all, raw: words.raw)
    }
  ])

let app = Workspace.client

/// Fixed instants in two calendars: UTC, and Berlin just before the clocks went back (2025-10-26).
let clocks: [(Calendar, Date)] = {
  var utc = Calendar(identifier: .gregorian)
  utc.timeZone = TimeZone(identifier: "UTC")!
  var berlin = Calendar(identifier: .gregorian)
  berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
  return [(utc, Date(timeIntervalSince1970: 1_763_719_800)), (berlin, Date(timeIntervalSince1970: 1_761_436_800))]
}()

/// A broken property: print why and trap, so libFuzzer keeps the input as a crash.
func finding(_ message: String) -> Never {
  fatalError("fuzz-words finding: \(message)")
}
