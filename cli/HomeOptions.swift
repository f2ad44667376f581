import ArgumentParser
import ConcordLog
import ConcordWire
import Foundation

/// `--home`, shared by every command.
struct HomeOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The Concord home (default: CONCORD_HOME, else $XDG_STATE_HOME/concord).", valueName: "DIR"))
  var home: String?

  var layout: ConcordHome { Self.layout(home: home) }

  /// The home `--home DIR` names, else CONCORD_HOME's or the default.
  static func layout(home: String?) -> ConcordHome {
    home.map { ConcordHome(URL(filePath: $0)) } ?? ConcordHome.resolve()
  }

  /// The `--home` of a command line not parsed yet (a shell completing it): `--home DIR` or
  /// `--home=DIR`.
  static func home(in words: [String]) -> String? {
    for (index, word) in words.enumerated() {
      if word == "--home", words.indices.contains(index + 1) { return words[index + 1] }
      if word.hasPrefix("--home=") { return String(word.dropFirst("--home=".count)) }
    }
    return nil
  }
}
