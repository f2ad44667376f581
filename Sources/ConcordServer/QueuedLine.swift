import NIOCore

/// A line a window's queue hands its connection to write.
///
/// Most lines are made for one window. The update of a scope that every window of it had the
/// previous state of is one line for all of them, kept as bytes and written to each as it is: a
/// fan-out to 1,000 windows copies it into no buffer of its own.
enum QueuedLine {
  case own(String)
  case shared(ByteBuffer)

  /// The line as text (tests read it so).
  var text: String {
    switch self {
    case let .own(text): text
    case let .shared(bytes): String(buffer: bytes)
    }
  }

  /// Appends the line to `buffer`, or makes it the buffer when there is none yet: a shared line
  /// written alone is passed on without a copy. A buffer that starts as a shared line is copied
  /// (copy on write) only when another line follows it.
  func append(to buffer: inout ByteBuffer?, allocator: ByteBufferAllocator) {
    switch self {
    case let .shared(bytes):
      if buffer == nil {
        buffer = bytes
      } else {
        buffer!.writeImmutableBuffer(bytes)
      }
    case let .own(text):
      if buffer == nil { buffer = allocator.buffer(capacity: max(256, text.utf8.count)) }
      buffer!.writeString(text)
    }
  }
}
