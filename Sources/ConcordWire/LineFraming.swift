/// The wire's one rule for where a line ends, for every reader of it: the daemon's channel
/// pipeline and the client's socket both ask a `LineFraming` which bytes make the next line.
///
/// Lines end at `\n`. A `\r` just before it is dropped so that a person typing into `socat` is
/// understood, and neither counts toward the limit: `maximumBytes` bytes and `\r\n` is a line
/// that fits. A line longer than the limit is an error as soon as it can no longer fit — the
/// reader never has to hold more than one maximum line and its `\r`.
///
/// ```swift
/// var framing = LineFraming()
/// while let line = try framing.nextLine(in: buffer.unread) {
///   handle(buffer.unread[line.content])
///   buffer.take(upTo: line.end)
/// }
/// ```
public struct LineFraming: Sendable {
  /// A line found: its bytes without `\n` (and `\r`), and where the next one starts.
  public struct Line: Equatable, Sendable {
    /// The line's own bytes, as indices of the bytes searched.
    public let content: Range<Int>
    /// The index just past the line's newline: where the next line begins.
    public let end: Int

    @inlinable
    init(content: Range<Int>, end: Int) {
      self.content = content
      self.end = end
    }
  }

  /// The longest line, in bytes, without its `\r\n`.
  public let maximumBytes: Int
  /// How far the bytes from the current line's start were searched already, so that a line
  /// arriving in many reads is searched once.
  @usableFromInline var searched = 0

  public init(maximumBytes: Int = WireLimits.maximumMessageBytes) {
    self.maximumBytes = maximumBytes
  }

  /// The first whole line of `bytes`, which must start where the previous line ended; nil when
  /// it has not all come yet.
  ///
  /// - Parameter bytes: the unread bytes, from the start of a line.
  /// - Throws: ``WireError/lineTooLong`` when the line is, or can no longer be anything but,
  ///   longer than ``maximumBytes``.
  // Inlinable: each reader's own byte collection (NIO's buffer view, an array slice) gets a
  // specialized search, not a generic walk through witness tables for every byte.
  @inlinable
  public mutating func nextLine<Bytes: RandomAccessCollection>(in bytes: Bytes) throws(WireError) -> Line?
  where Bytes.Element == UInt8, Bytes.Index == Int {
    let from = bytes.index(bytes.startIndex, offsetBy: min(searched, bytes.count))
    guard let newline = bytes[from...].firstIndex(of: UInt8(ascii: "\n")) else {
      searched = bytes.count
      // One byte more may still be the `\r` of a line that fits.
      if bytes.count > maximumBytes + 1 || (bytes.count == maximumBytes + 1 && bytes.last != UInt8(ascii: "\r")) {
        throw .lineTooLong
      }
      return nil
    }
    searched = 0
    var contentEnd = newline
    if contentEnd > bytes.startIndex, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
    if contentEnd - bytes.startIndex > maximumBytes { throw .lineTooLong }
    return Line(content: bytes.startIndex..<contentEnd, end: newline + 1)
  }
}
