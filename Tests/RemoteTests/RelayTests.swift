import ConcordClient
import ConcordPlatform
import ConcordWire
import DaemonDriving
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A laptop's relay (`concord relay`): every window, command and sync to one server goes over one
/// ssh, started once. The `ssh` here is a stand-in that runs the remote command on this machine
/// and counts how often it was started; the daemon is a real one.
@Suite(.serialized) struct RelayTests {
  @Test func commandsAndWindowsToOneServerShareOneSSH() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let environment = laptop.environment(for: daemon)

    for number in 1...3 {
      let sent = try ConcordCLI.runProgram(ConcordCLI.binary, ["send", "counter", "inc"], environment: environment)
      #expect(sent.status == 0 && sent.output.contains("applied as entry \(number + 1)"), "\(sent.output)\(sent.error)")
    }
    let window = try ConcordCLI.runProgram(ConcordCLI.binary, ["attach", "counter", "--json"], environment: environment, input: "")
    #expect(window.output.contains(#""state":3"#), "\(window.output)\(window.error)")
    #expect(laptop.logins == 1, "ssh was started \(laptop.logins) times for three sends and a window")
    // The relay's socket is this account's alone, whatever the umask.
    let directory = laptop.directory.appending(path: "concord-\(getuid())")
    let sockets = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("relay-") && $0.hasSuffix(".sock") }
    #expect(sockets.count == 1)
    for name in sockets {
      var info = stat()
      #expect(stat(directory.appending(path: name).path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(name): \(String(info.st_mode & 0o777, radix: 8))")
    }
  }

  /// A window that sends without reading (its answers pile up in the relay, which pauses it)
  /// holds up no other window on the same ssh.
  @Test func aWindowThatStopsReadingHoldsUpNoOther() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let environment = laptop.environment(for: daemon)
    let target = try SSHTarget(environment["CONCORD_HOST"]!)
    func window() throws -> Int32 {
      let hello = #"{"type":"hello","protocol":1}"# + "\n" + #"{"type":"attach","scope":"counter"}"# + "\n"
      return try RelayLink.open(to: target, greeting: Array(hello.utf8), timeout: 10, environment: environment)
    }
    let flooder = try window()
    defer { close(flooder) }
    // Two megabytes of sends, never reading an answer, as fast as the relay takes them.
    _ = fcntl(flooder, F_SETFL, fcntl(flooder, F_GETFL) | O_NONBLOCK)
    var flood = Array((1...20_000).map { #"{"type":"send","scope":"counter","client":"flood","cseq":\#($0),"action":{"increment":{}}}"# + "\n" }.joined().utf8)
    let floodEnd = Date().addingTimeInterval(3)
    while !flood.isEmpty, Date() < floodEnd {
      let written = flood.withUnsafeBytes { write(flooder, $0.baseAddress, $0.count) }
      if written > 0 { flood.removeFirst(written) } else { usleep(10_000) }
    }

    let good = try window()
    defer { close(good) }
    let connection = AnswerReader(fd: good)
    var worst = 0.0
    for cseq in 1...50 {
      let started = Date()
      let line = #"{"type":"send","scope":"counter","client":"good","cseq":\#(cseq),"action":{"increment":{}}}"# + "\n"
      _ = line.withCString { write(good, $0, strlen($0)) }
      let ack = try connection.line(containing: #""client":"good","cseq":\#(cseq)"#, timeout: 10)
      #expect(ack != nil, "send \(cseq) of the good window was not answered")
      if ack == nil { break }
      worst = max(worst, Date().timeIntervalSince(started))
    }
    #expect(worst < 2, "the good window waited \(worst) s for an answer")
  }
}

extension RelayTests {
  /// A server whose `concord` has no relay end, or whose shell prints a greeting on standard
  /// output before the command, gives a line that says so instead of "cannot be reached".
  @Test func aServerThatCannotCarryTheRelaySaysWhy() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let old = laptop.directory.appending(path: "old-concord")
    try "#!/bin/sh\necho \"Error: Unknown option '--mux'\" >&2\nexit 2\n".write(to: old, atomically: true, encoding: .utf8)
    let chatty = laptop.directory.appending(path: "chatty-concord")
    try "#!/bin/sh\necho 'Welcome to the team server!'\nexec \(ConcordCLI.binary.path) \"$@\"\n".write(to: chatty, atomically: true, encoding: .utf8)
    for script in [old, chatty] { chmod(script.path, 0o755) }

    var environment = laptop.environment(for: daemon)
    environment["CONCORD_REMOTE_COMMAND"] = old.path
    let tooOld = try ConcordCLI.runProgram(ConcordCLI.binary, ["send", "counter", "inc"], environment: environment)
    #expect(tooOld.status == 1 && tooOld.error.contains("older than this one"), "\(tooOld.error)")
    environment["CONCORD_REMOTE_COMMAND"] = chatty.path
    let garbled = try ConcordCLI.runProgram(ConcordCLI.binary, ["send", "counter", "inc"], environment: environment)
    #expect(garbled.status == 3 && garbled.error.contains("answered something else"), "\(garbled.error)")
  }

  /// A directory for the relay's socket that another account could have made (not 0700, or not
  /// ours) is refused: the relay there might not be ours.
  @Test func aRelayDirectoryOthersCouldUseIsRefused() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.stopAndRemoveHome() }
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let shared = laptop.directory.appending(path: "concord-\(getuid())")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(shared.path, 0o777)
    let refused = try ConcordCLI.runProgram(ConcordCLI.binary, ["send", "counter", "inc"], environment: laptop.environment(for: daemon))
    #expect(refused.status != 0 && refused.error.contains("must be a directory of this account's alone"), "\(refused.error)")
    #expect(laptop.logins == 0)
  }
}

extension RelayTests {
  /// A relay that takes the connection and then says nothing (stopped, or wedged) is given up on
  /// after the wait, and no second relay or ssh is started beside it.
  @Test func aRelayThatNeverAnswersIsGivenUpOnInTime() throws {
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let environment = laptop.environment(serverHome: "/srv/concord")
    let relay = try MuteRelay(for: environment, hangsUp: false)
    defer { relay.stop() }

    let started = Date()
    #expect {
      try RelayLink.open(to: relay.target, greeting: Array(#"{"type":"hello","protocol":1}\#n"#.utf8), timeout: 1, environment: environment)
    } throws: { error in
      (error as? ClientError)?.description.contains("did not answer within 1 s") == true
    }
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(relay.accepted == 1)
    #expect(laptop.logins == 0)
  }

  /// A relay that ends as a window comes (its last window left a minute ago) is tried once more;
  /// when that ends too, `send` says so, exits 3 and keeps the action in the outbox.
  @Test func aRelayThatEndsWithoutAnsweringIsTriedOnceMoreAndTheActionWaits() throws {
    let laptop = try StandInSSH()
    defer { laptop.remove() }
    let environment = laptop.environment(serverHome: "/srv/concord")
    let relay = try MuteRelay(for: environment, hangsUp: true)
    defer { relay.stop() }

    let sent = try ConcordCLI.runProgram(ConcordCLI.binary, ["send", "counter", "inc"], environment: environment)
    #expect(sent.status == 3, "\(sent.output)\(sent.error)")
    #expect(sent.error.contains("ended before the daemon answered"), "\(sent.error)")
    #expect(sent.output.contains("queued as 1"), "\(sent.output)")
    #expect(relay.accepted == 2, "the relay was tried \(relay.accepted) times")
    #expect(laptop.logins == 0)
  }
}

/// Something listening where this account's relay would, that never answers a window: it keeps
/// each connection open without a word, or closes it at once (`hangsUp`).
final class MuteRelay: Sendable {
  /// The server whose relay this stands in for (`CONCORD_HOST`).
  let target: SSHTarget
  private let listener: Int32
  private let path: String
  private let count = Mutex(0)

  var accepted: Int { count.withLock { $0 } }

  /// Listens where a window with `environment` looks for its relay.
  init(for environment: [String: String], hangsUp: Bool) throws {
    target = try SSHTarget(environment["CONCORD_HOST"]!)
    path = RelayLink.socketPath(for: target, environment: environment)
    try FileManager.default.createDirectory(
      atPath: URL(filePath: path).deletingLastPathComponent().path, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    listener = try UnixSocket.listen(at: path, backlog: 8)
    Thread { [self] in
      var held: [Int32] = []
      while true {
        let peer = accept(listener, nil, nil)
        guard peer >= 0 else { break }
        count.withLock { $0 += 1 }
        if hangsUp { close(peer) } else { held.append(peer) }
      }
      held.forEach { close($0) }
      // Closed here, after the last accept: closed from `stop`, its number could be another
      // test's descriptor by the time this thread called accept again.
      close(listener)
    }.start()
  }

  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    unlink(path)
  }
}

/// A stand-in for `ssh` that runs the remote command here, counting its logins.
struct StandInSSH {
  let directory: URL

  init() throws {
    directory = URL(filePath: "/tmp").appending(path: "relay-\(UUID().uuidString.prefix(6))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let ssh = directory.appending(path: "ssh")
    try """
      #!/bin/sh
      echo login >> "\(directory.path)/logins"
      for last; do :; done
      exec sh -c "$last"

      """.write(to: ssh, atomically: true, encoding: .utf8)
    chmod(ssh.path, 0o755)
  }

  /// A laptop's environment whose host is `daemon`'s home, through this ssh.
  func environment(for daemon: DaemonUnderTest) -> [String: String] {
    environment(serverHome: daemon.home.path)
  }

  /// A laptop's environment whose host is the daemon home `serverHome` on the stand-in server.
  func environment(serverHome: String) -> [String: String] {
    ConcordCLI.environment(home: directory.appending(path: "laptop"), app: "sample").merging([
      "CONCORD_SSH_COMMAND": directory.appending(path: "ssh").path, "CONCORD_REMOTE_COMMAND": ConcordCLI.binary.path,
      "XDG_RUNTIME_DIR": directory.path, "CONCORD_HOST": "ssh://tester@standin\(serverHome)",
    ]) { $1 }
  }

  var logins: Int {
    ((try? String(contentsOfFile: directory.appending(path: "logins").path, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  func remove() {
    _ = try? ConcordCLI.runProgram(URL(filePath: "/usr/bin/pkill"), ["-f", directory.path + "/"])
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Lines read from a descriptor, for a test that looks for one answer among many.
final class AnswerReader {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  /// The first line that contains `text`, waiting at most `timeout` seconds; nil if none came.
  func line(containing text: String, timeout: Double) throws -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        if line.contains(text) { return line }
      }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = read(fd, &chunk, chunk.count)
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[..<count])
    }
    return nil
  }
}
