import ConcordWire
import DaemonDriving
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `concordd --allow-group GROUP` as the README promises it: the group's members connect, other
/// accounts do not, and nobody else could have reached the socket meanwhile. Seen from real
/// second accounts: root would pass every permission check.
@Suite(.serialized) struct AllowGroupTests {
  @Test(.enabled(if: TestAccounts.canCreate, "needs root to create a group and two accounts (CI runs as root)"))
  func membersOfTheAllowedGroupConnectAndOtherAccountsCannot() throws {
    let accounts = try TestAccounts()
    defer { accounts.remove() }
    let daemon = try DaemonUnderTest(arguments: ["--allow-group", accounts.group]).start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }

    // The home lets the group pass through (not list it), the socket lets it connect.
    let home = try attributes(daemon.home.path)
    #expect(home.mode == 0o710, "home mode \(String(home.mode, radix: 8))")
    #expect(home.gid == accounts.gid)
    let socket = try attributes(daemon.socketPath)
    #expect(socket.mode == 0o660, "socket mode \(String(socket.mode, radix: 8))")
    #expect(socket.gid == accounts.gid)

    let status = ["daemon", "status", "--home", daemon.home.path]
    let member = try accounts.run(as: accounts.member, ConcordCLI.binary.path, status)
    #expect(member.status == 0, "\(member.output)")
    #expect(member.output.contains("running: pid"), "\(member.output)")

    // Passing through the home, a member can open no file in it but the socket: the daemon's
    // files (the log's -wal and -shm included, which exist while it runs) are its own alone.
    let owner = try LineSocket(path: daemon.socketPath)
    try owner.hello()
    _ = try owner.attach("counter")
    try owner.send(.send(scope: "counter", action: ["increment": [:]], client: "owner", cseq: 1))
    try owner.receive { if case .ack = $0 { true } else { false } }
    let files = try FileManager.default.contentsOfDirectory(atPath: daemon.home.path)
    #expect(files.contains("log.sqlite-wal"), "\(files)")
    for file in files where file != "concordd.sock" {
      let mode = try attributes(daemon.home.appending(path: file).path).mode
      #expect(mode & 0o077 == 0, "\(file) is \(String(mode, radix: 8))")
    }

    let outsider = try accounts.run(as: accounts.outsider, ConcordCLI.binary.path, status)
    #expect(outsider.status == 3, "\(outsider.output)")
    #expect(outsider.output.contains("Permission denied"), "\(outsider.output)")
    #expect(!outsider.output.contains("running: pid"))
  }

  /// A member who connects the moment the socket appears is let in: the socket path never
  /// exists with the owner's mode alone, so nobody has to wait for the daemon to open it.
  /// Watched from before the start by polling `stat` as fast as it goes.
  @Test(.enabled(if: TestAccounts.canCreate, "needs root to create a group and two accounts (CI runs as root)"))
  func theSocketIsTheGroupsFromTheMomentItAppears() throws {
    let accounts = try TestAccounts()
    defer { accounts.remove() }
    let daemon = try DaemonUnderTest(arguments: ["--allow-group", accounts.group])
    let path = daemon.socketPath
    let firstSeen = Mutex<(mode: UInt32, gid: UInt32)?>(nil)
    let watcher = Thread {
      let deadline = Date().addingTimeInterval(20)
      var info = stat()
      while Date() < deadline {
        if stat(path, &info) == 0 {
          firstSeen.withLock { $0 = (info.st_mode & 0o7777, info.st_gid) }
          return
        }
      }
    }
    watcher.start()
    _ = try daemon.start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    while !watcher.isFinished { usleep(1_000) }
    let seen = try #require(firstSeen.withLock { $0 })
    #expect(seen.mode == 0o660, "the socket first appeared as \(String(seen.mode, radix: 8))")
    #expect(seen.gid == accounts.gid, "the socket first appeared with gid \(seen.gid)")
  }

  /// A daemon whose account is not in the group it is told to let in cannot give its home to
  /// that group: it says so, and why, and leaves the home closed, with no socket.
  @Test(.enabled(if: TestAccounts.canCreate, "needs root to create a group and two accounts (CI runs as root)"))
  func aDaemonOutsideTheGroupSaysSoAndOpensNothing() throws {
    let accounts = try TestAccounts()
    defer { accounts.remove() }
    let home = DaemonUnderTest.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    guard chown(home.path, accounts.outsider.uid, accounts.outsider.gid) == 0 else {
      throw DriveError("cannot give \(home.path) to \(accounts.outsider.name)")
    }
    // Under `timeout`: a daemon that started after all would otherwise keep the test waiting.
    let started = try accounts.run(
      as: accounts.outsider, "/usr/bin/timeout",
      ["20", DaemonUnderTest.binary.path, "--home", home.path, "--app", "sample", "--allow-group", accounts.group])
    #expect(started.status != 0)
    #expect(started.output.contains("cannot give \(home.path) to group \(accounts.group)"), "\(started.output)")
    #expect(started.output.contains("must be a member of \(accounts.group)"), "\(started.output)")
    #expect(try attributes(home.path).mode == 0o700)
    #expect(!FileManager.default.fileExists(atPath: home.appending(path: "concordd.sock").path))
  }

  private func attributes(_ path: String) throws -> (mode: UInt32, gid: UInt32) {
    var info = stat()
    guard stat(path, &info) == 0 else { throw DriveError("cannot stat \(path)") }
    return (info.st_mode & 0o7777, info.st_gid)
  }
}
