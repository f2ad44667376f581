import Foundation
import Testing

/// The apps' JSON is what `schema/workspace.schema.json` and `schema/sample-app.schema.json`
/// publish: `app_schema_peer.py`, a client written from the schemas alone, sends the documented
/// JSON of every action through `concord send` and a raw socket, and validates with the
/// `jsonschema` package every state it is sent (snapshots and updates), what `concord state`
/// prints, and every action text of the audit export. Actions the schema refuses must be refused
/// by the daemon too.
@Suite(.serialized) struct AppSchemaTests {
  @Test func realTrafficFitsThePublishedSchema() throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "app_schema_peer.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", script.path, "--concordd", DaemonProcess.binary.path, "--concord", ConcordCLI.binary.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0 && text.contains(" passed, 0 failed"), "\(text.suffix(4_000))")
  }
}
