import ArgumentParser
import ConcordLog
import ConcordWire
import Foundation

/// `--home`, shared by every command.
struct HomeOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The Concord home (default: CONCORD_HOME, else $XDG_STATE_HOME/concord).", valueName: "DIR"))
  var home: String?

  var layout: ConcordHome {
    home.map { ConcordHome(URL(filePath: $0)) } ?? ConcordHome.resolve()
  }
}
