import ConcordWire
import DaemonDriving
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One daemon per home, stale sockets recovered, clean shutdown, strangers refused.
@Suite(.serialized) struct LifecycleTests {
  @Test func aSecondDaemonOnTheSameHomeRefusesToStart() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let second = try DaemonUnderTest(home: daemon.home)
    try second.process.run()
    second.process.waitUntilExit()
    #expect(second.process.terminationStatus == 1)
    #expect(second.output.contains("already running (pid \(daemon.process.processIdentifier))"))
    // The first one is unharmed.
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
  }

  /// Only a socket is replaced: a file of the person's own at the socket's path is left alone,
  /// and the daemon says why it does not start.
  @Test func aFileThatIsNotASocketAtTheSocketsPathIsLeftAlone() throws {
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let daemon = try DaemonUnderTest(home: home)
    try Data("notes".utf8).write(to: URL(filePath: daemon.socketPath))
    try daemon.process.run()
    daemon.process.waitUntilExit()
    #expect(daemon.process.terminationStatus == 1)
    #expect(daemon.output.contains("\(daemon.socketPath) exists and is not a socket"), "\(daemon.output)")
    #expect(try String(contentsOfFile: daemon.socketPath, encoding: .utf8) == "notes")
  }

  @Test func aStaleSocketFromACrashIsReplaced() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    daemon.kill9()
    #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
    let restarted = try DaemonUnderTest(home: daemon.home).start()
    // It serves, and its own start is logged: once that entry is committed (on a loaded machine
    // a moment after the socket opens), a window is welcomed at seq 1 or later.
    var seq: Int64 = 0
    for _ in 0..<100 where seq < 1 {
      seq = try LineSocket(path: restarted.socketPath).hello().seq
      if seq < 1 { usleep(50_000) }
    }
    #expect(seq >= 1)
  }

  @Test func sigtermStopsCleanlyWithACheckpointAndNoSocket() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let window = try LineSocket(path: daemon.socketPath)
    try window.hello()
    _ = try window.attach("counter")
    try window.send(.send(scope: "counter", action: .object(["increment": .object([:])]), client: "w", cseq: 1))
    try window.receive { if case .ack(_, 1, _) = $0 { true } else { false } }
    let started = Date()
    #expect(daemon.terminate() == 0)
    #expect(Date().timeIntervalSince(started) < 3)
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    let checkpoint = try String(contentsOf: daemon.home.appending(path: "log.sqlite.checkpoint"), encoding: .utf8)
    #expect(checkpoint.contains("\"seq\""))
  }

  @Test func aWrongKeyStopsTheStartWithAClearReason() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    #expect(daemon.terminate() == 0)
    let key = daemon.home.appending(path: "key")
    try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: key)
    chmod(key.path, 0o600)
    let again = try DaemonUnderTest(home: daemon.home)
    try again.process.run()
    again.process.waitUntilExit()
    #expect(again.process.terminationStatus == 1)
    #expect(again.output.contains("wrong key for log \(daemon.home.appending(path: "log.sqlite").path)"))
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
  }

  @Test func theSocketAndHomeAreClosedToOthers() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let socket = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
    #expect((socket[.posixPermissions] as? Int) == 0o600)
    let home = try FileManager.default.attributesOfItem(atPath: daemon.home.path)
    #expect((home[.posixPermissions] as? Int) == 0o700)
  }

  @Test(.enabled(if: getuid() == 0 && getpwnam("nobody") != nil, "becoming another account (nobody) needs root"))
  func anotherAccountIsRefused() throws {
    let nobody = try #require(getpwnam("nobody"))
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    // The socket is 0600, so open it for the test: the peer check must hold on its own.
    chmod(daemon.home.path, 0o711)
    chmod(daemon.socketPath, 0o666)
    let uid = nobody.pointee.pw_uid
    let gid = nobody.pointee.pw_gid
    let pipe = Pipe()
    let child = Process()
    child.executableURL = URL(filePath: "/usr/bin/env")
    // A raw peer as `nobody`: python3 is on every machine this runs on.
    child.arguments = [
      "python3", "-c",
      """
      import os, socket
      os.setgid(\(gid)); os.setuid(\(uid))
      s = socket.socket(socket.AF_UNIX); s.connect("\(daemon.socketPath)")
      # A refused peer is told at once, before it says anything.
      print(s.makefile().readline().strip())
      """,
    ]
    child.standardOutput = pipe
    child.standardError = pipe
    try child.run()
    child.waitUntilExit()
    let answer = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(answer.contains("may not use this daemon"), "\(answer)")
    #expect(!answer.contains("welcome"))
  }
}
