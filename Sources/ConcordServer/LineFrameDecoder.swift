import ConcordWire
import NIOCore

/// The daemon's reading of a window's bytes as lines, in its channel pipeline: where a line
/// ends, and how long one may be, is ``LineFraming``'s to say (the client asks it too). A half
/// line at the end of the stream is discarded.
///
/// ```swift
/// try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
/// ```
struct LineFrameDecoder: ByteToMessageDecoder {
  typealias InboundOut = ByteBuffer

  private var framing: LineFraming

  init(maximumBytes: Int = WireLimits.maximumMessageBytes) {
    framing = LineFraming(maximumBytes: maximumBytes)
  }

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    guard let line = try framing.nextLine(in: buffer.readableBytesView) else { return .needMoreData }
    let content = buffer.getSlice(at: line.content.lowerBound, length: line.content.count)!
    buffer.moveReaderIndex(to: line.end)
    context.fireChannelRead(wrapInboundOut(content))
    return .continue
  }

  mutating func decodeLast(
    context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
  ) throws -> DecodingState {
    while try decode(context: context, buffer: &buffer) == .continue {}
    buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
    return .needMoreData
  }
}
