import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import Foundation

/// Shell completion of a scope argument: the scopes the running daemon offers (its welcome),
/// else the bundled app's; a parameterized one is offered as `card:` for the rest to be typed.
enum ScopeCompletion {
  static let kind = CompletionKind.custom { words, _, prefix in candidates(words: words, prefix: prefix) }

  /// The scopes starting with `prefix`. `words` are the command line's, for its `--home`.
  static func candidates(words: [String], prefix: String) -> [String] {
    let layout = HomeOptions.layout(home: HomeOptions.home(in: words))
    var names: [String]
    if let connection = try? ClientConnection(socket: layout.socket, timeout: 0.5, presence: false) {
      names = connection.welcome.scopes.map { $0.parameterized ? $0.name + ":" : $0.name }
      connection.close()
    } else {
      names = ProgramApp.current.scopeUsages.map { usage in
        usage.firstIndex(of: ":").map { String(usage[...$0]) } ?? usage
      }
    }
    return names.filter { $0.hasPrefix(prefix) }
  }
}
