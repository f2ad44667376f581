import ArgumentParser
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation

/// `--home` and `--host`, shared by every command.
struct HomeOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The home (default: CONCORD_HOME, else $XDG_STATE_HOME/\(ConcordProgram.running.name)).", valueName: "DIR"))
  var home: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A daemon on another machine, reached with ssh (default: CONCORD_HOST).", valueName: "ssh://[USER@]HOST[:PORT][/HOME]"))
  var host: String?

  /// The daemon's machine when it is another one: `--host`, else `CONCORD_HOST` (checked by
  /// ``validate()`` before any command runs).
  var remote: SSHTarget? { hostText.flatMap { try? SSHTarget($0) } }

  /// `--host`, else `CONCORD_HOST`; nil when neither names one.
  private var hostText: String? {
    (host ?? ProcessInfo.processInfo.environment["CONCORD_HOST"]).flatMap { $0.isEmpty ? nil : $0 }
  }

  func validate() throws {
    guard let hostText else { return }
    do {
      _ = try SSHTarget(hostText)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// The home on this machine: the daemon's own when it runs here; for a daemon on another
  /// machine, this client's outbox and states seen of it, in `remotes/USER@HOST:PORT` of the home.
  var layout: ConcordHome {
    let base = Self.layout(home: home)
    guard let remote else { return base }
    return ConcordHome(base.directory.appending(path: "remotes").appending(path: Self.directoryName(remote.name)))
  }

  /// Where the daemon is: this machine's socket, or another machine through ssh.
  var address: DaemonAddress { remote.map { .ssh($0) } ?? .socket(layout.socket) }

  /// The home of a daemon on this machine: a command that reads the log itself (`state`, `log`)
  /// or runs the daemon cannot work on another machine's.
  ///
  /// - Parameter doing: what the command does there, for the message (`reads the log`).
  func localLayout(doing: String) throws -> ConcordHome {
    if let remote {
      let login = (remote.user.map { "\($0)@" } ?? "") + remote.host
      throw CommandFailure.usage("this command \(doing) on the daemon's machine; run it there: ssh \(login) \(ConcordProgram.running.name) …")
    }
    return layout
  }

  /// A remote's name as one directory's name: `/` and `%` escaped.
  static func directoryName(_ name: String) -> String {
    name.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
  }

  /// The home `--home DIR` names, else CONCORD_HOME's or the default.
  static func layout(home: String?) -> ConcordHome {
    home.map { ConcordHome(URL(filePath: $0)) } ?? ConcordHome.resolve(program: ConcordProgram.running.name)
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
