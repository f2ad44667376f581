/// Bytes read from a descriptor, taken from the front as whole messages (a line, a frame) once
/// they have all come. What was taken is dropped when more is appended, and the storage is
/// compacted past 64 KiB, so a reader that is never fully caught up does not keep everything it
/// has read.
///
/// ```swift
/// var buffer = ReadBuffer()
/// buffer.append(received)
/// if let newline = buffer.unread.firstIndex(of: 10) { let line = buffer.take(upTo: newline, skipping: 1) }
/// ```
public struct ReadBuffer: Sendable {
  public init() {}

  private var bytes: [UInt8] = []
  private var start = 0

  /// What has not been taken yet; its indices are the buffer's, for ``take(upTo:skipping:)``.
  public var unread: ArraySlice<UInt8> { bytes[start...] }

  public mutating func append(_ more: some Collection<UInt8>) {
    if start > 0, start == bytes.count {
      bytes.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 65_536 {
      bytes.removeSubrange(..<start)
      start = 0
    }
    bytes.append(contentsOf: more)
  }

  /// The unread bytes before `end`, taken, and `skipping` bytes after them (a line's newline).
  @discardableResult
  public mutating func take(upTo end: Int, skipping: Int = 0) -> ArraySlice<UInt8> {
    defer { start = end + skipping }
    return bytes[start..<end]
  }
}
