@testable import ConcordClient
@testable import ConcordRelay
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The relay's frames read back as they were written, however the stream is cut into reads,
/// checked against an encoder written here from the format in `MuxFrame`'s documentation (9-byte
/// header: channel, kind, length, big-endian; then the payload); a frame that breaks the format
/// is refused, never guessed at.
struct MuxFrameProperties {
  /// The documented layout, byte by byte.
  private func encode(channel: UInt32, kind: UInt8, payload: [UInt8]) -> [UInt8] {
    let length = UInt32(payload.count)
    return [
      UInt8(channel >> 24), UInt8(channel >> 16 & 0xFF), UInt8(channel >> 8 & 0xFF), UInt8(channel & 0xFF), kind,
      UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
    ] + payload
  }

  @Test func framesCutAnywhereReadBackWhole() throws {
    var random = SystemRandomNumberGenerator()
    let payloads: [[UInt8]] = [
      [], [0], Array("{\"type\":\"hello\"}\n".utf8), Array("日本😀e\u{301}\u{0}".utf8),
      [UInt8](repeating: 0xFF, count: MuxFrame.maximumPayload), [UInt8](repeating: 10, count: 65_535),
    ]
    for _ in 0..<200 {
      var expected: [MuxFrame] = []
      var stream: [UInt8] = []
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        let channel = [0, 1, UInt32.max, UInt32.random(in: 0...UInt32.max, using: &random)].randomElement(using: &random)!
        let kind = MuxFrame.Kind(rawValue: UInt8.random(in: 1...7, using: &random))!
        let payload = payloads.randomElement(using: &random)!
        expected.append(MuxFrame(channel: channel, kind: kind, payload: payload))
        stream += encode(channel: channel, kind: kind.rawValue, payload: payload)
      }
      // And our own encoder writes the same bytes.
      var ours: [UInt8] = []
      for frame in expected { frame.append(to: &ours) }
      #expect(ours == stream)

      var reader = MuxFrameReader()
      var read: [MuxFrame] = []
      var at = 0
      while at < stream.count {
        let size = [1, 2, 8, 9, 10, 4096, 70_000].randomElement(using: &random)!
        reader.append(stream[at..<min(stream.count, at + size)])
        at += size
        while let frame = try reader.next() { read.append(frame) }
      }
      #expect(read == expected)
    }
  }

  @Test func aFrameOutsideTheFormatIsRefused() {
    for bad in [
      encode(channel: 1, kind: 0, payload: []), encode(channel: 1, kind: 8, payload: [1]),
      encode(channel: 1, kind: 255, payload: []),
      // A length past the most a frame carries, with or without the bytes behind it.
      Array(encode(channel: 1, kind: 3, payload: []).prefix(5)) + [0, 1, 0, 1],
      Array(encode(channel: 1, kind: 3, payload: []).prefix(5)) + [0xFF, 0xFF, 0xFF, 0xFF],
    ] {
      var reader = MuxFrameReader()
      reader.append(bad)
      #expect(throws: MuxFrameReader.Malformed.self) { try reader.next() }
    }
    // A header that has not all come yet is not an error: more may come.
    var reader = MuxFrameReader()
    reader.append(encode(channel: 1, kind: 3, payload: [1, 2, 3]).prefix(10))
    #expect((try? reader.next()) == .some(nil))
  }
}

/// The relay's first line to a window fits the window's limit whatever ssh said (a long banner,
/// control characters that JSON escapes six-fold, emoji), and keeps ssh's last words, which say
/// why.
struct RelayAnswerProperties {
  @Test func aFailureLineFitsAndKeepsTheEnd() throws {
    let pieces = ["\u{0}", "\u{1B}[31m", "日本", "😀", "e\u{301}", "\"\\/", "Permission denied (publickey).\n", String(repeating: "x", count: 5000)]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let said = (0..<Int.random(in: 0...400, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        + "\nPermission denied (publickey)."
      let line = RelayAnswer.failed(status: 255, said: said).line
      #expect(line.count <= RelayAnswer.maximumBytes)
      #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
      guard case let .failed(status, kept)? = RelayAnswer(line: line.dropLast()) else {
        Issue.record("not read back: \(String(decoding: line.prefix(200), as: UTF8.self))")
        continue
      }
      #expect(status == 255 && kept.hasSuffix("Permission denied (publickey).") && said.utf8.suffix(kept.utf8.count).elementsEqual(kept.utf8))
    }
  }
}

/// A queue toward a slow reader that never quite empties keeps in memory about what waits, not
/// everything that ever went through it.
struct ByteQueueBounds {
  @Test func aQueueThatNeverEmptiesKeepsOnlyWhatWaits() throws {
    var pair: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer { close(pair[0]); close(pair[1]) }
    // As the relay's descriptors are.
    _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    var queue = ByteQueue()
    let chunk = [UInt8](repeating: 7, count: 65_536)
    var sink = [UInt8](repeating: 0, count: 65_536)
    var largest = 0
    // 64 MiB through it, the reader taking a little less than is written each time.
    for _ in 0..<1024 {
      queue.append(chunk)
      let written = queue.write(to: pair[0])
      #expect(written)
      _ = recv(pair[1], &sink, 60_000, Int32(MSG_DONTWAIT))
      largest = max(largest, queue.storedBytes)
    }
    #expect(queue.count > 0, "the queue emptied: the test did not keep it busy")
    #expect(largest < queue.count * 2 + 4 * 65_536 + 1_048_576, "kept \(largest) bytes for \(queue.count) waiting")
  }
}
