import ArgumentParser
import ConcordDaemonCommand
import ConcordLog
import Foundation

/// `NAME log export|verify|tail`.
struct LogCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ConcordProgram.running.name
    return CommandConfiguration(
      commandName: "log",
      abstract: "Export, verify and follow the action log.",
      discussion: """
        Examples:
          \(name) log export --format jsonl -o audit.jsonl
          \(name) log verify
          \(name) log verify audit.jsonl --public-key log.sqlite.pub
          \(name) log tail
        """,
      subcommands: [Export.self, Verify.self, Tail.self])
  }

  struct Export: ParsableCommand {
    static var configuration: CommandConfiguration {
      let examples = HelpExamples.current
      let name = examples.program
      return CommandConfiguration(
      abstract: "Write entries as an audit export an auditor can verify with the public key alone.",
      discussion: """
        JSONL is the canonical export: `\(name) log verify FILE --public-key log.sqlite.pub` \
        checks it. CSV is a plain CSV file for spreadsheets and databases (its first line is \
        the column names); with -o FILE its header and footer (log id, range, public key, the \
        signed chain head) go to FILE.meta.jsonl beside it, as the JSONL export writes them.

        Examples:
          \(name) log export --format jsonl -o audit.jsonl
          \(name) log export --format csv -o audit.csv --from 100 --to 200
          \(name) log export --scope \(examples.second)     # other scopes' entries as hash-only stubs
        """)
    }

    @OptionGroup var log: LogOptions

    @Option(help: "jsonl (verifiable) or csv (for spreadsheets).")
    var format: AuditFormat = .jsonl

    @Option(help: ArgumentHelp("The first entry.", valueName: "SEQ"))
    var from: Int64 = 1

    @Option(help: ArgumentHelp("The last entry (default: the end).", valueName: "SEQ"))
    var to: Int64?

    @Option(
      help: ArgumentHelp("Disclose only this scope's entries; the others are hash-only stubs, so the chain still verifies.", valueName: "SCOPE"),
      completion: ScopeCompletion.kind)
    var scope: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (default: standard output).", valueName: "FILE"))
    var output: String?

    func run() throws {
      if let remote = log.home.remote {
        // Exported on the server, written here.
        var arguments = ["log", "export"] + log.remoteArguments + ["--format", format.rawValue, "--from", String(from)]
        arguments += (to.map { ["--to", String($0)] } ?? []) + (scope.map { ["--scope", $0] } ?? [])
        return try RemoteRun.relay(arguments, on: remote, output: output)
      }
      let actionLog = try log.openLog()
      var sink = try OutputSink(path: output)
      // CSV's header and footer go beside the file (nowhere when the CSV goes to standard output).
      let metadataPath = format == .csv ? output.map { $0 + ".meta.jsonl" } : nil
      var metadataSink: OutputSink?
      if format == .csv, output == nil {
        FileHandle.standardError.write(
          Data("\(ConcordProgram.running.name): note: the CSV's signed header and footer are written only with -o FILE (to FILE.meta.jsonl)\n".utf8))
      }
      var progress = ProgressBar("exporting")
      let last = min(to ?? actionLog.lastSeq, actionLog.lastSeq)
      var written: Int64 = 0
      var metadataLanded = false
      do {
        metadataSink = try metadataPath.map { try OutputSink(path: $0) }
        try actionLog.exportAudit(
          format: format, from: from, through: to, scope: scope, metadata: { try metadataSink?.write($0) }
        ) { line in
          try sink.write(line)
          written += 1
          progress.update(min(written, max(0, last - from + 1)), of: max(0, last - from + 1))
        }
        // The metadata lands first: it holds nothing secret, so if the export then fails to land,
        // nothing decrypted is left behind (and the metadata is taken away again below).
        try metadataSink?.close()
        metadataLanded = metadataSink != nil
        try sink.close()
      } catch {
        // A half-written export holds decrypted entries: it must not stay behind.
        sink.discard()
        metadataSink?.discard()
        if metadataLanded, let metadataPath { try? FileManager.default.removeItem(atPath: metadataPath) }
        throw CommandFailure(message: "\(error)")
      }
      progress.finish()
    }
  }

  struct Verify: ParsableCommand {
    static var configuration: CommandConfiguration {
      let name = ConcordProgram.running.name
      let daemon = ConcordProgram.running.daemonCommand ?? name
      return CommandConfiguration(
      abstract: "Check the hash chain and the signed checkpoints of the log, or of an export file.",
      discussion: """
        Exits 0 when everything holds; otherwise 1, naming the first entry that does not.

        Examples:
          \(name) log verify
          \(name) log verify --checkpoint "$(journalctl -u \(daemon) | grep 'checkpoint seq=' | tail -1)"
          \(name) log verify audit.jsonl --public-key log.sqlite.pub
        """)
    }

    @OptionGroup var log: LogOptions

    @Argument(help: "A JSONL export to verify instead of the log.")
    var exportFile: String?

    @Option(help: ArgumentHelp("The log's public key file, for an export (default: the key in its header).", valueName: "FILE"))
    var publicKey: String?

    @Flag(help: "Verify a log that has no checkpoint file beside it (a cut tail then goes unnoticed).")
    var withoutCheckpointFile = false

    @Option(
      name: .customLong("checkpoint"),
      help: ArgumentHelp(
        "A checkpoint the daemon logged (its line, or `seq=N head=HEX`), kept outside the home: the log must still hold it. Repeatable.",
        valueName: "LINE"))
    var witnessedCheckpoints: [String] = []

    func run() throws {
      if let exportFile { return try verifyExport(exportFile) }
      if let remote = log.home.remote {
        var arguments = ["log", "verify"] + log.remoteArguments + (withoutCheckpointFile ? ["--without-checkpoint-file"] : [])
        for checkpoint in witnessedCheckpoints { arguments += ["--checkpoint", checkpoint] }
        return try RemoteRun.relay(arguments, on: remote)
      }
      let witnessed = try witnessed()
      let actionLog = try log.openLog()
      var progress = ProgressBar("verifying")
      let report: VerificationReport
      do {
        report = try actionLog.verify(withoutCheckpointFile: withoutCheckpointFile, witnessed: witnessed) { done, total in
          progress.update(done, of: total)
        }
      } catch {
        throw CommandFailure(message: "\(error)")
      }
      progress.finish()
      for note in report.notes { print("note: \(note)") }
      if let failure = report.failure {
        var message = "the log does not verify: \(failure)"
        if case .noCheckpointFile = failure.problem {
          message += " (pass --without-checkpoint-file to verify the rest)"
        }
        throw CommandFailure(message: message)
      }
      print("verified \(report.verifiedEntries) entries and \(report.checkedCheckpoints) signed checkpoints")
    }

    /// The `--checkpoint` lines as heads by seq; a line that names none is a usage error.
    private func witnessed() throws -> [Int64: [UInt8]] {
      var heads: [Int64: [UInt8]] = [:]
      for line in witnessedCheckpoints {
        guard let witness = WitnessedCheckpoint(line: line) else {
          throw CommandFailure.usage("--checkpoint takes a line with seq=N head=HEX (64 hex digits), not \(line)")
        }
        heads[witness.seq] = witness.head
      }
      return heads
    }

    private func verifyExport(_ path: String) throws {
      let key: [UInt8]?
      do {
        key = try publicKey.map { try AuditExport.publicKey(fromFileAt: URL(filePath: $0)) }
      } catch {
        throw CommandFailure(message: "\(error)")
      }
      let result: AuditExport.Verification
      do {
        result = try AuditExport.verify(fileAt: URL(filePath: path), publicKey: key)
      } catch {
        throw CommandFailure(message: "cannot read \(path): \(error.localizedDescription)")
      }
      if let failure = result.failure { throw CommandFailure(message: "the export does not verify: \(failure)") }
      let trust = result.usedHeaderKey ? " (with the key in its own header: pass --public-key to check who signed it)" : ""
      print("verified \(result.verifiedEntries) entries\(trust)")
    }
  }

  struct Tail: ParsableCommand {
    static var configuration: CommandConfiguration {
      let name = ConcordProgram.running.name
      return CommandConfiguration(
        abstract: "Print entries as they are committed, one line each, until interrupted.",
        discussion: "Examples:\n  \(name) log tail\n  \(name) log tail --from 1")
    }

    @OptionGroup var log: LogOptions

    @Option(help: ArgumentHelp("Start at this entry (default: the next one).", valueName: "SEQ"))
    var from: Int64?

    func run() throws {
      if let remote = log.home.remote {
        return try RemoteRun.relay(["log", "tail"] + log.remoteArguments + (from.map { ["--from", String($0)] } ?? []), on: remote)
      }
      let actionLog = try log.openLog()
      var next = from ?? actionLog.lastSeq + 1
      let formatter = ISO8601DateFormatter()
      while true {
        do {
          try actionLog.forEachEntry(from: next) { entry in
            let record = entry.record
            let outcome: String
            switch record.outcome {
            case .applied: outcome = "applied"
            case let .refused(reason): outcome = "refused: \(reason)"
            }
            Terminal.writeRow([String(entry.seq), formatter.string(from: record.at), record.user, record.scope, record.action, outcome])
            next = entry.seq + 1
          }
        } catch {
          throw CommandFailure(message: "\(error)")
        }
        usleep(200_000)
      }
    }
  }
}

/// Lets `log export --format` take an audit format by its name (`jsonl` or `csv`).
extension AuditFormat: ExpressibleByArgument {}

/// Standard output, or a file written whole (a temporary file renamed at the end).
struct OutputSink {
  private let handle: FileHandle
  private let path: String?
  private let temporary: String?

  init(path: String?) throws {
    self.path = path
    guard let path else {
      handle = FileHandle.standardOutput
      temporary = nil
      return
    }
    let temporary = path + ".partial"
    guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
      let handle = FileHandle(forWritingAtPath: temporary)
    else { throw CommandFailure(message: "cannot write \(path)") }
    self.handle = handle
    self.temporary = temporary
  }

  mutating func write(_ line: String) throws {
    try handle.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Bytes as they come (a remote export relayed).
  mutating func write(_ data: Data) throws {
    try handle.write(contentsOf: data)
  }

  /// Removes the temporary file of an export that failed (nothing to do on standard output).
  func discard() {
    guard let temporary else { return }
    try? handle.close()
    try? FileManager.default.removeItem(atPath: temporary)
  }

  func close() throws {
    guard let path, let temporary else { return }
    try handle.synchronize()
    try handle.close()
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    try FileManager.default.moveItem(atPath: temporary, toPath: path)
  }
}
