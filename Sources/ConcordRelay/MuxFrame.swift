/// One frame on the trunk that carries a laptop's windows to `concord dial-stdio --mux` over one
/// ssh channel: which window's connection it belongs to, what happens to it, and its bytes.
///
/// On the wire a frame is a 9-byte header — the channel (4 bytes, big-endian), the kind (1
/// byte), the payload's length (4 bytes, big-endian, at most ``maximumPayload``) — then the
/// payload. Only `data` and `close` carry one (`close`'s is why, in words).
///
/// ```swift
/// var bytes: [UInt8] = []
/// MuxFrame(channel: 7, kind: .data, payload: Array("{\"type\":\"hello\"}\n".utf8)).append(to: &bytes)
/// ```
import ConcordWire
public struct MuxFrame: Equatable, Sendable {
  public enum Kind: UInt8, Sendable {
    /// The relay asks for a new connection to the daemon.
    case open = 1
    /// The server's answer: the daemon took the connection.
    case opened = 2
    /// Bytes of the connection, in order.
    case data = 3
    /// The sender's side reached its end (a half-close): the other side shuts its write side.
    case end = 4
    /// The connection is over, both ways; the payload says why when it is a failure.
    case close = 5
    /// The receiver holds too much of this channel unwritten: send no more until `resume`.
    case pause = 6
    case resume = 7
  }

  /// Bytes of a connection in one frame, at most: a read's worth.
  public static let maximumPayload = 65_536
  static let headerBytes = 9

  public var channel: UInt32
  public var kind: Kind
  public var payload: [UInt8]

  public init(channel: UInt32, kind: Kind, payload: [UInt8] = []) {
    self.channel = channel
    self.kind = kind
    self.payload = payload
  }

  /// Writes the frame's header, then `payload`, onto the end of `bytes`.
  public func append(to bytes: inout [UInt8]) {
    Self.appendHeader(channel: channel, kind: kind, length: payload.count, to: &bytes)
    bytes.append(contentsOf: payload)
  }

  /// A header whose payload the caller appends itself (straight from a read buffer).
  static func appendHeader(channel: UInt32, kind: Kind, length: Int, to bytes: inout [UInt8]) {
    for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: channel >> UInt32(shift))) }
    bytes.append(kind.rawValue)
    for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
  }
}

/// Frames out of a byte stream that arrives in pieces of any size.
///
/// ```swift
/// var reader = MuxFrameReader()
/// reader.append(received)
/// while let frame = try reader.next() { handle(frame) }
/// ```
public struct MuxFrameReader {
  private var buffer = ReadBuffer()

  /// Why a stream is not frames: the trunk is closed, since nothing after it can be trusted.
  public struct Malformed: Error, CustomStringConvertible {
    public var description: String
  }

  public init() {}

  public mutating func append(_ bytes: some Collection<UInt8>) { buffer.append(bytes) }

  /// The next whole frame, or nil until more bytes come.
  public mutating func next() throws(Malformed) -> MuxFrame? {
    let unread = buffer.unread
    guard unread.count >= MuxFrame.headerBytes else { return nil }
    let header = unread.prefix(MuxFrame.headerBytes)
    let channel = header.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let declared = header.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let kindByte = header[header.startIndex + 4]
    guard let kind = MuxFrame.Kind(rawValue: kindByte) else { throw Malformed(description: "a frame of unknown kind \(kindByte)") }
    guard declared <= MuxFrame.maximumPayload else {
      throw Malformed(description: "a frame of \(declared) bytes (at most \(MuxFrame.maximumPayload))")
    }
    let length = Int(declared)
    guard unread.count >= MuxFrame.headerBytes + length else { return nil }
    let body = unread.startIndex + MuxFrame.headerBytes
    _ = buffer.take(upTo: body)
    return MuxFrame(channel: channel, kind: kind, payload: Array(buffer.take(upTo: body + length)))
  }
}
