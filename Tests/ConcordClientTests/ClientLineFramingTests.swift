import ConcordPlatform
import ConcordWire
import Foundation
import PropertyRandom
import Testing

@testable import ConcordClient

#if canImport(Glibc)
import Glibc
#endif

/// The client reads the daemon's lines as the protocol says a line is (`LineFramingModel`):
/// a daemon that sends a line past 1 MiB is a protocol error, however the bytes arrive, and
/// every line that fits is a message. The daemon here writes a welcome and then a stream of
/// `pong`s padded with spaces to lengths around the limit, ending each as the stream generator
/// chose, and closes.
@Suite struct ClientLineFramingTests {
  @Test func theClientTakesTheLinesTheProtocolAllowsAndNoLonger() throws {
    let limit = WireLimits.maximumMessageBytes
    var tooLong = 0
    for seed in PropertyRandom.seeds(from: 0xC11E_0000, count: 12) {
      var random = PropertyRandom(seed: seed)
      let stream = random.linesAround(limit: limit, filler: Self.paddedPong)
      let expected = LineFramingModel.read(stream, limit: limit)
      let read = try Self.readThroughClient(stream, seed: seed)
      #expect(read.pongs == expected.lines.count && read.tooLong == expected.tooLong, "seed \(seed): \(read) vs \(expected.lines.count) lines, too long \(expected.tooLong)")
      if expected.tooLong { tooLong += 1 }
    }
    if PropertyRandom.replayed == nil { #expect(tooLong > 0 && tooLong < 12, "\(tooLong) of 12 streams had a line too long") }
  }

  /// A line of one byte more than the limit, newline and all in one write, is refused: the
  /// client once checked only a buffer with no newline in it.
  @Test func aLineOneBytePastTheLimitIsAProtocolError() throws {
    let pong = Array(#"{"type":"pong"}"#.utf8)
    let line = pong + [UInt8](repeating: UInt8(ascii: " "), count: WireLimits.maximumMessageBytes + 1 - pong.count) + [10]
    let read = try Self.readThroughClient(line, seed: 0)
    #expect(read.pongs == 0 && read.tooLong)
  }

  /// A `pong` padded to `length` bytes with JSON's blanks.
  static func paddedPong(_ random: inout PropertyRandom, length: Int) -> [UInt8] {
    var line = Array(#"{"type":"pong"}"#.utf8)
    while line.count < length { line.append(random.chance(1) ? UInt8(ascii: "\t") : UInt8(ascii: " ")) }
    return line
  }

  /// Plays the daemon on `listener`: a welcome after the hello, then `stream`, then the end of
  /// its writing; waits for the client to hang up.
  static func serve(_ listener: Int32, stream: [UInt8]) {
    let peer = accept(listener, nil, nil)
    guard peer >= 0 else { return }
    defer { close(peer) }
    var byte: UInt8 = 0
    while read(peer, &byte, 1) == 1, byte != 10 {}
    let welcome = #"{"type":"welcome","protocol":1,"log_id":"ab","user":"tester","seq":0,"app":"Counter","scopes":[]}"#
    let bytes = Array(welcome.utf8) + [10] + stream
    var offset = 0
    while offset < bytes.count {
      // No SIGPIPE when the client has hung up on a line too long.
      let written = bytes[offset...].withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { return }
      offset += written
    }
    shutdown(peer, Int32(SHUT_WR))
    // Closing before the client is done would reset what it has not read yet.
    while read(peer, &byte, 1) > 0 {}
  }

  /// Pongs the client passed on, and whether it stopped for a line too long.
  static func readThroughClient(_ stream: [UInt8], seed: UInt64) throws -> (pongs: Int, tooLong: Bool) {
    let home = TemporaryHome.make()
    defer { try? FileManager.default.removeItem(at: home) }
    let path = home.appending(path: "concordd.sock").path
    let listener = try UnixSocket.listen(at: path, backlog: 1)
    defer { close(listener) }
    let daemon = Thread { Self.serve(listener, stream: stream) }
    daemon.start()
    let connection = try ClientConnection(socket: URL(filePath: path), presence: false)
    defer { connection.close() }
    var pongs = 0
    do {
      while let message = try connection.receive(timeout: 10) {
        if message == .pong { pongs += 1 }
      }
    } catch {
      guard case let .protocolError(reason) = error, reason.contains("longer than") else { throw error }
      return (pongs, true)
    }
    return (pongs, false)
  }
}
