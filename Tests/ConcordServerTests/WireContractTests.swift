import DaemonDriving
import Foundation
import Testing

/// The wire contract checked by a peer that shares no code with the daemon:
/// `wire_contract_peer.py`, a Python client written from `schema/wire-protocol.schema.json`
/// alone, runs its scenarios (client ids, NFC, exact integers, line limits, half-close, answer
/// order) against the real `concordd` and `concord`, each on a fresh home.
@Suite(.serialized) struct WireContractTests {
  @Test func anIndependentPeerFindsTheDaemonKeepingTheWireContract() throws {
    let (status, text) = try PythonPeer.run("wire_contract_peer.py")
    let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
    #expect(status == 0, "the independent peer: \(failures.joined(separator: "\n").prefix(4_000))")
    #expect(text.contains(" passed, 0 failed"), "\(text.suffix(2_000))")
  }
}
