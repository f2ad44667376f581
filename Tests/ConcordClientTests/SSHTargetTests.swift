import Foundation
import Testing

@testable import ConcordClient

/// What reaches ssh and the server's shell from a host the person names: the URL's parts, never
/// an option in disguise, and each argument of the remote command exactly as given — checked
/// against the real `/bin/sh` as the model of the server's shell.
@Suite struct SSHTargetTests {
  @Test func aHostURLIsReadIntoItsPartsAndNothingElse() throws {
    let full = try SSHTarget("ssh://alice@server:2222/srv/concord")
    #expect(full.user == "alice" && full.host == "server" && full.port == 2222 && full.home == "/srv/concord")
    #expect(full.name == "alice@server:2222/srv/concord")
    let alias = try SSHTarget("ssh://teamserver")
    #expect(alias.user == nil && alias.port == nil && alias.home == nil && alias.name == "teamserver")
    for bad in [
      "server", "http://server", "ssh://", "ssh://-oProxyCommand=touch%20x", "ssh://-bad@server", "ssh://a%20b@server",
      "ssh://alice:secret@server", "ssh://server?x=1", "ssh://server#frag",
    ] {
      #expect(throws: ClientError.self, "\(bad)") { try SSHTarget(bad) }
    }
    // Whatever was named, ssh is told the host after `--`, so it can never read it as an option.
    let command = SSHTransport.command(for: alias, running: ["dial-stdio", "--mux"], environment: [:])
    #expect(command.suffix(3).first == "--" && command.suffix(2).first == "teamserver")
  }

  /// Each argument of a remote command arrives in the server's shell as the one word it was:
  /// quotes, spaces, `$`, backquotes, globs, newlines, CJK and emoji, empty.
  @Test func theServersShellReadsEachArgumentAsGiven() throws {
    let alphabet: [String] = ["a", " ", "'", "\"", "$HOME", "`id`", "*", "\\", "\n", ";", "日本", "😀", "-", "%", "!"]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let word = (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
      let process = Process()
      process.executableURL = URL(filePath: "/bin/sh")
      process.arguments = ["-c", "printf %s " + SSHTransport.shellQuoted(word)]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(String(decoding: data, as: UTF8.self) == word, "\(word.debugDescription)")
    }
  }
}
