import DaemonDriving
import Foundation
import Testing

/// `concord dial-stdio`, the far end of a remote window, as ssh runs it: what comes in on its
/// input reaches the daemon and the daemon's lines come out; the end of its input is passed on
/// as a half-close (the daemon answers what it was sent, then closes, and the relay ends); a
/// daemon that dies ends it; no daemon is exit code 3.
@Suite(.serialized) struct DialStdioTests {
  @Test func aHalfCloseIsPassedOnAndEverythingSentIsAnswered() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let input = #"{"type":"hello","protocol":1}"# + "\n" + #"{"type":"attach","scope":"counter"}"# + "\n"
      + #"{"type":"send","scope":"counter","client":"relay","cseq":1,"action":{"increment":{}}}"# + "\n" + #"{"type":"ping"}"# + "\n"
    let relayed = try ConcordCLI.run(["dial-stdio"], home: daemon.home, input: input)
    #expect(relayed.status == 0, "\(relayed.error)")
    let kinds = relayed.output.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
    }
    #expect(kinds == ["welcome", "snapshot", "update", "ack", "pong"], "\(relayed.output)")
  }

  @Test func aDaemonThatDiesEndsTheRelayAndNoDaemonIsExitCode3() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let relay = Process()
    relay.executableURL = ConcordCLI.binary
    relay.arguments = ["dial-stdio"]
    relay.environment = ConcordCLI.environment(home: daemon.home, app: "sample")
    let input = Pipe()
    relay.standardInput = input
    relay.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try relay.run()
    input.fileHandleForWriting.write(Data((#"{"type":"hello","protocol":1}"# + "\n").utf8))
    usleep(300_000)
    daemon.kill9()
    let deadline = Date().addingTimeInterval(10)
    while relay.isRunning, Date() < deadline { usleep(20_000) }
    #expect(!relay.isRunning, "the relay outlived its daemon")
    if relay.isRunning { relay.terminate() }

    let none = try ConcordCLI.run(["dial-stdio"], home: daemon.home, input: "")
    #expect(none.status == 3)
    #expect(none.error.contains("no daemon runs in"), "\(none.error)")
  }
}

/// `concord dial-stdio --mux`, the server's end of a laptop's relay, checked by
/// `mux_peer.py`: a laptop end written from the frame format alone. Each channel is a connection
/// of its own; a half-close is passed on; no daemon is a `close` with the reason; a pause holds up
/// that channel alone; a line over the daemon's limit is refused on its channel only; a malformed
/// frame ends the trunk.
@Suite(.serialized) struct MuxTrunkTests {
  @Test func anIndependentLaptopEndFindsEachChannelAConnectionOfItsOwn() throws {
    let (status, text) = try PythonPeer.run("mux_peer.py")
    #expect(status == 0, "\(text.suffix(3_000))")
    #expect(text.contains(" passed, 0 failed"), "\(text.suffix(2_000))")
  }
}
