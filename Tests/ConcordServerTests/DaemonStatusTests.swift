import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// The `status` message counts what the schema says it counts.
@Suite struct DaemonStatusTests {
  /// schema/wire-protocol.schema.json: `windows` is "how many connections have said hello" —
  /// the one asking has, and a connection still before its hello has not.
  @Test func windowsCountsEveryConnectionThatSaidHelloTheAskingOneIncluded() throws {
    let daemon = try DaemonUnderTest().start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let first = try LineSocket(path: daemon.socketPath)
    try first.hello()
    let second = try LineSocket(path: daemon.socketPath)
    try second.hello()
    _ = try second.attach("counter")
    let silent = try LineSocket(path: daemon.socketPath)
    let asking = try LineSocket(path: daemon.socketPath)
    try asking.hello()
    try asking.send(.status)
    let answers = try asking.receive { if case .status = $0 { true } else { false } }
    guard case let .status(status) = answers.last! else { return }
    #expect(status.windows == 3)
    #expect(status.scopes == ["counter": 1])
    withExtendedLifetime((first, second, silent)) {}
  }
}
