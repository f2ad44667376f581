import NIOCore

/// Splits a byte stream into lines of at most ``WireLimits/maximumMessageBytes``.
///
/// A line longer than the limit is an error (``WireError/lineTooLong``) as soon as the limit is
/// passed: the decoder never buffers more than one maximum line. A trailing `\r` is dropped so
/// that a person typing into `socat` is understood — and, like the newline, it does not count:
/// 1 MiB and `\r\n` is a 1 MiB line. A half line at the end of the stream is discarded.
///
/// ```swift
/// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
/// ```
public struct LineFrameDecoder: ByteToMessageDecoder {
  public typealias InboundOut = ByteBuffer

  private let maximumBytes: Int
  /// How far the current line has been searched for a newline already.
  private var searched = 0

  public init(maximumBytes: Int = WireLimits.maximumMessageBytes) {
    self.maximumBytes = maximumBytes
  }

  public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    let view = buffer.readableBytesView
    guard let newline = view[(view.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) else {
      searched = view.count
      // One byte more may still be the `\r` of a line that fits.
      if view.count > maximumBytes + 1 || (view.count == maximumBytes + 1 && view.last != UInt8(ascii: "\r")) {
        throw WireError.lineTooLong
      }
      return .needMoreData
    }
    searched = 0
    var length = newline - view.startIndex
    if length > 0, view[newline - 1] == UInt8(ascii: "\r") { length -= 1 }
    if length > maximumBytes { throw WireError.lineTooLong }
    let line = buffer.readSlice(length: length)!
    buffer.moveReaderIndex(to: newline + 1)
    context.fireChannelRead(wrapInboundOut(line))
    return .continue
  }

  public mutating func decodeLast(
    context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
  ) throws -> DecodingState {
    while try decode(context: context, buffer: &buffer) == .continue {}
    buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
    return .needMoreData
  }
}

/// What can go wrong reading the wire.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
  case lineTooLong
  case badMessage(String)

  public var description: String {
    switch self {
    case .lineTooLong: "a line is longer than \(WireLimits.maximumMessageBytes) bytes"
    case let .badMessage(reason): reason
    }
  }
}
