import ArgumentParser
import ConcordDaemonCommand
import ConcordLog
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Opening the log directly (the daemon may be running or not), as the daemon would.
struct LogOptions: ParsableArguments {
  @OptionGroup var home: HomeOptions

  @Option(name: .long, help: ArgumentHelp("The key file (default: HOME/key).", valueName: "PATH"))
  var keyFile: String?

  @Flag(name: .long, help: "Unlock the log with the passphrase in CONCORD_PASSPHRASE instead of a key file.")
  var passphrase = false

  /// The log options as the same command on the server takes them.
  var remoteArguments: [String] {
    (keyFile.map { ["--key-file", $0] } ?? []) + (passphrase ? ["--passphrase"] : [])
  }

  func openLog() throws -> ActionLog {
    let layout = try home.localLayout(doing: "reads the log itself")
    guard FileManager.default.fileExists(atPath: layout.log.path) else {
      throw CommandFailure(message: "no log at \(layout.log.path): start the daemon once with `\(ConcordProgram.running.name) daemon start`")
    }
    let source: KeySource
    if passphrase {
      guard let text = ProcessInfo.processInfo.environment["CONCORD_PASSPHRASE"], !text.isEmpty else {
        throw CommandFailure.usage("--passphrase reads the passphrase from CONCORD_PASSPHRASE, which is not set")
      }
      source = .passphrase(Array(text.utf8))
    } else {
      source = .file(keyFile.map { URL(filePath: $0) } ?? layout.key)
    }
    do {
      return try ActionLog.open(at: layout.log, key: source)
    } catch {
      throw CommandFailure(message: "\(error)")
    }
  }
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
struct ProgressBar {
  let label: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private var lastDrawn = Date.distantPast

  init(_ label: String) { self.label = label }

  mutating func update(_ done: Int64, of total: Int64) {
    guard enabled, total > 0, Date().timeIntervalSince(lastDrawn) > 0.1 || done == total else { return }
    lastDrawn = Date()
    let width = 30
    let filled = Int(Double(width) * Double(done) / Double(total))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
  }

  func finish() {
    if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
  }
}
