import Foundation
import Testing

/// The wire contract checked by a peer that shares no code with the daemon:
/// `wire_contract_peer.py`, a Python client written from `schema/wire-protocol.schema.json`
/// alone, runs its scenarios (client ids, NFC, exact integers, line limits, half-close, answer
/// order) against the real `concordd` and `concord`, each on a fresh home.
@Suite(.serialized) struct WireContractTests {
  @Test func anIndependentPeerFindsTheDaemonKeepingTheWireContract() throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "wire_contract_peer.py")
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
    let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
    #expect(process.terminationStatus == 0, "the independent peer: \(failures.joined(separator: "\n").prefix(4_000))")
    #expect(text.contains(" passed, 0 failed"), "\(text.suffix(2_000))")
  }
}
