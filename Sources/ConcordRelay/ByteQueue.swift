#if canImport(Glibc)
import Glibc
#endif

/// Bytes waiting to be written to a descriptor that takes them only as fast as its reader does:
/// appended at the back, written from the front without waiting.
struct ByteQueue {
  private var bytes: [UInt8] = []
  private var start = 0

  var count: Int { bytes.count - start }
  /// What the queue keeps in memory, written bytes not yet dropped among them.
  var storedBytes: Int { bytes.count }
  var isEmpty: Bool { start == bytes.count }

  mutating func append(_ more: some Collection<UInt8>) { bytes.append(contentsOf: more) }

  /// Appends a frame's header and `payload` in place (the hot path: no frame value is made).
  mutating func appendFrame(channel: UInt32, kind: MuxFrame.Kind, payload: UnsafeRawBufferPointer) {
    MuxFrame.appendHeader(channel: channel, kind: kind, length: payload.count, to: &bytes)
    bytes.append(contentsOf: payload)
  }

  mutating func appendFrame(_ frame: MuxFrame) { frame.append(to: &bytes) }

  /// Writes as much as `fd` takes now. Returns false when the descriptor failed (its reader is
  /// gone); a full descriptor is not a failure.
  ///
  /// `fd` is non-blocking (a socket or a pipe: standard output under sshd), and the process
  /// ignores SIGPIPE, as both ends of the relay do: one `write` a turn, whatever it is.
  mutating func write(to fd: Int32) -> Bool {
    while start < bytes.count {
      let written = bytes[start...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written < 0 { return compacted(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) }
      start += written
    }
    bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
    start = 0
    return true
  }

  /// Drops what was written once it is most of the storage: a queue that is never quite empty
  /// (a slow link, appended to as fast as it drains) must not keep everything it ever held.
  private mutating func compacted(_ result: Bool) -> Bool {
    if start > 65_536, start > bytes.count / 2 {
      bytes.removeSubrange(..<start)
      start = 0
    }
    return result
  }
}
