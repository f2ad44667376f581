import DaemonDriving
import Foundation
import Testing

/// A window through ssh keeps taking what a person types while a login hangs (a host that does
/// not answer keeps `ssh` until its ConnectTimeout): the connection is made beside the window,
/// not in its way. The `ssh` here is a stand-in that refuses the first login at once and lets
/// every later one hang until the test lets go (or its directory is gone: the relay it holds
/// is not left running after the test).
@Suite(.serialized) struct ConnectingWindowTests {
  @Test func whatIsTypedWhileALoginHangsIsQueuedAtOnce() throws {
    let directory = URL(filePath: "/tmp").appending(path: "cwt-\(UUID().uuidString.prefix(6))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ssh = directory.appending(path: "ssh")
    try """
      #!/bin/sh
      cd "\(directory.path)"
      if [ ! -e first ]; then touch first; echo "ssh: connect to host nowhere port 22: Connection refused" >&2; exit 255; fi
      touch hanging
      while [ ! -e release ] && [ -d "\(directory.path)" ]; do sleep 0.05; done
      exit 255

      """.write(to: ssh, atomically: true, encoding: .utf8)
    chmod(ssh.path, 0o755)
    defer { _ = FileManager.default.createFile(atPath: directory.appending(path: "release").path, contents: nil) }

    let environment = [
      "CONCORD_HOME=\(directory.appending(path: "laptop").path)", "CONCORD_APP=sample", "CONCORD_SSH_COMMAND=\(ssh.path)",
      "XDG_RUNTIME_DIR=\(directory.path)",
    ].joined(separator: " ")
    let window = try Tmux(command: "env \(environment) \(ConcordCLI.binary.path) attach counter --host ssh://tester@nowhere")
    defer { window.kill() }
    try window.waitForScreen(containing: "OFFLINE")
    // The second login has begun, and hangs.
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: directory.appending(path: "hanging").path), Date() < deadline { usleep(20_000) }
    #expect(FileManager.default.fileExists(atPath: directory.appending(path: "hanging").path), "no second login was tried")

    try window.type("inc")
    try window.waitForScreen(containing: "1 to send", timeout: 2)
    // And the status line says what is going on.
    try window.waitForScreen(containing: "OFFLINE, connecting")

    // Another scope opens while its login hangs too: the window waits a second for the daemon
    // to say whether it has the scope, not for the login.
    try window.type("/open notes")
    try window.waitForScreen(containing: "opened notes", timeout: 3)
  }
}
