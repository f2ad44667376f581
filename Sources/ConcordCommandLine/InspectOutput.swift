import ConcordJSON
import ConcordLog
import ConcordReplay
import ConcordText
import ConcordWire
import Foundation

/// What `inspect` prints when it is not a full-screen window: text a line an entry (tab
/// separated, like `log tail`, with the app's words in place of the JSON), or one JSON object a
/// line (`--json`).
struct InspectOutput {
  let json: Bool

  /// One entry: `seq  time  user  scope  words  applied|refused: reason`.
  func entry(_ entry: InspectedEntry) {
    if json {
      Terminal.write(Self.json(of: entry).jsonText + "\n")
    } else {
      Terminal.writeRow(Self.fields(of: entry))
    }
  }

  /// What an entry changed: the entry, then the changes one a line, then the scope as of it.
  func change(_ change: EntryChange) {
    if json {
      var object: [String: JSONValue] = [
        "type": "change", "entry": Self.json(of: change.entry), "scope": change.scope.map(JSONValue.string) ?? .null,
        "before": change.before ?? .null, "after": change.after ?? .null,
      ]
      object["changes"] = .array(Self.changes(change).map(JSONValue.string))
      Terminal.write(JSONValue.object(object).jsonText + "\n")
      return
    }
    Terminal.writeLines(Self.lines(of: change) { ["  " + $0.jsonText] })
  }

  /// The answer to a "what if": what was left out, what would have been refused and why, and
  /// how the state would differ from today's.
  func whatIf(_ answer: LogInspector.WhatIfAnswer, leaving: LeftOut) {
    let difference = ReadableDiff.lines(from: answer.today, to: answer.whatIf.state)
    if json {
      Terminal.write(
        JSONValue.object([
          "type": "what-if", "seq": .integer(answer.whatIf.seq),
          "left_out": .array(answer.whatIf.leftOut.map(JSONValue.integer)),
          "refused": .array(answer.whatIf.refused.map { .object(["entry": Self.json(of: $0.entry), "reason": .string($0.reason)]) }),
          "applied": .array(answer.whatIf.applied.map { Self.json(of: $0) }),
          "differences": .array(difference.map(JSONValue.string)),
          "state": answer.whatIf.state,
        ]).jsonText + "\n")
      return
    }
    Terminal.writeLines(Self.lines(of: answer, leaving: leaving))
  }

  /// A "what if" in words: what was left out, what would have been refused and why, what
  /// refused then would have been applied, and how the state would differ from today's. The
  /// window shows these lines too.
  static func lines(of answer: LogInspector.WhatIfAnswer, leaving: LeftOut) -> [String] {
    let whatIf = answer.whatIf
    var lines = ["Without \(describe(leaving)), replayed in memory through entry \(whatIf.seq) (nothing is written):", ""]
    lines.append("Left out: \(whatIf.leftOut.isEmpty ? "no entry" : seqs(whatIf.leftOut))")
    if whatIf.refused.isEmpty {
      lines.append("Every later action would still have been applied.")
    } else {
      lines.append("\(whatIf.refused.count) later action(s) would have been refused:")
      for refusal in whatIf.refused {
        lines.append("  \(refusal.entry.seq) \(refusal.entry.user) \(refusal.entry.scope): \(refusal.reason) · \(refusal.entry.action)")
      }
    }
    if !whatIf.applied.isEmpty {
      lines.append("\(whatIf.applied.count) action(s) refused then would have been applied:")
      for entry in whatIf.applied { lines.append("  \(entry.seq) \(entry.user) \(entry.scope): \(entry.action)") }
    }
    let difference = ReadableDiff.lines(from: answer.today, to: whatIf.state)
    lines += ["", difference.isEmpty ? "The state would be the same as today's." : "How the state would differ from today's:"]
    lines += difference.map { "  " + $0 }
    return lines
  }

  /// What an entry changed, in words: the entry, the changes one a line, then its scope as of
  /// it, drawn by `state` (one JSON line when printed, an outline in the window).
  static func lines(of change: EntryChange, state: (JSONValue) -> [String]) -> [String] {
    let scope = change.scope ?? "the whole state"
    var lines = [fields(of: change.entry).map { InertText.shown($0) }.joined(separator: "  "), "", "What it changed in \(scope):"]
    let changes = changes(change)
    lines += changes.isEmpty ? ["  nothing"] : changes.map { "  " + $0 }
    lines += ["", "\(scope.prefix(1).uppercased() + scope.dropFirst()) as of entry \(change.entry.seq):"]
    lines += change.after.map(state) ?? ["  (gone)"]
    return lines
  }

  /// An entry as its fields: `seq  time  user  scope  words  applied|refused: reason`.
  static func fields(of entry: InspectedEntry) -> [String] {
    let outcome: String
    switch entry.outcome {
    case .applied: outcome = "applied"
    case let .refused(reason): outcome = "refused: \(reason)"
    }
    return [String(entry.seq), time(entry.at), entry.user, entry.scope.isEmpty ? "-" : entry.scope, entry.said, outcome]
  }

  static func json(of entry: InspectedEntry) -> JSONValue {
    let reason: JSONValue
    if case let .refused(text) = entry.outcome { reason = .string(text) } else { reason = .null }
    return .object([
      "type": "entry", "seq": .integer(entry.seq), "time": .string(time(entry.at)), "user": .string(entry.user),
      "client": .string(entry.client), "cseq": .integer(entry.cseq), "scope": .string(entry.scope),
      "action": (try? JSONValue(parsing: entry.action)) ?? .string(entry.action),
      "words": entry.words.map(JSONValue.string) ?? .null,
      "outcome": .string(entry.outcome.isApplied ? "applied" : "refused"), "reason": reason,
    ])
  }

  /// The changes one a line: the scope's, or that it appeared or went away.
  static func changes(_ change: EntryChange) -> [String] {
    switch (change.before, change.after) {
    case let (before?, after?): return ReadableDiff.lines(from: before, to: after)
    case let (nil, after?): return ["+ appeared: \(after.jsonText)"]
    case (_?, nil): return ["- went away"]
    case (nil, nil): return []
    }
  }

  static func time(_ date: Date) -> String { (try? JSONDate.text(date)) ?? "\(date)" }

  static func describe(_ leaving: LeftOut) -> String {
    var parts: [String] = []
    if !leaving.seqs.isEmpty { parts.append("entr\(leaving.seqs.count == 1 ? "y" : "ies") \(seqs(leaving.seqs.sorted()))") }
    if let user = leaving.user {
      parts.append("what \(user) did" + (leaving.from.map { " from \(time($0))" } ?? ""))
    }
    return parts.joined(separator: " and ")
  }

  static func seqs(_ seqs: [Int64]) -> String {
    seqs.count <= 12 ? seqs.map(String.init).joined(separator: ", ") : "\(seqs.count) entries, \(seqs.first!)…\(seqs.last!)"
  }
}
