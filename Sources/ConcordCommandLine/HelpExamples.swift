import ConcordApp
import ConcordDaemonCommand

/// The examples in the commands' `--help`, made from the program's name and its app's scopes
/// and words, so that every program's help shows lines that work for its own app.
struct HelpExamples {
  let program: String
  let app: ProgramApp

  static var current: HelpExamples { HelpExamples(program: ConcordProgram.running.name, app: ProgramApp.current) }

  /// The app's scopes as an example names them: `card:1` for `card:ID`, `chat:NAME` as it is.
  var scopes: [String] {
    app.scopeUsages.map { usage in
      guard let colon = usage.firstIndex(of: ":") else { return usage }
      let placeholder = usage[usage.index(after: colon)...]
      return ["ID", "N", "NUMBER"].contains(placeholder) ? usage[...colon] + "1" : usage
    }
  }

  /// The first scope, and the second when there is one (else the first again).
  var first: String { scopes.first ?? "SCOPE" }
  var second: String { scopes.dropFirst().first ?? first }

  /// Up to `count` scopes with a line a person could type there: `(scope, line)`; scopes an
  /// example names in full (`board`, `card:1`) first.
  func typed(_ count: Int) -> [(scope: String, line: String)] {
    let usable = zip(scopes, app.scopeUsages).compactMap { example, usage -> (String, String)? in
      let name = String(usage.split(separator: ":").first ?? "")
      guard let line = app.client.scope(named: name)?.examples.first else { return nil }
      return (example, line)
    }
    let named = usable.filter { $0.0 == $0.0.lowercased() } + usable.filter { $0.0 != $0.0.lowercased() }
    return Array(named.prefix(count))
  }

  /// `text` quoted for a POSIX shell, for a line to paste.
  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// `NAME send SCOPE 'LINE'`, for each scope with an example.
  var sendLines: [String] {
    typed(3).map { "\(program) send \($0.scope) \(Self.quoted($0.line))" }
  }

  /// `echo 'LINE' | NAME attach SCOPE --json`, for the first scope with an example.
  var scriptedAttach: String? {
    typed(1).first.map { "echo \(Self.quoted($0.line)) | \(program) attach \($0.scope) --json" }
  }
}
