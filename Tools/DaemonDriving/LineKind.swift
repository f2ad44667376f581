import ConcordWire
import Foundation

/// What a driver needs to know of the daemon's lines: which kind each one is. Keys are
/// sorted, so `type` is the last key of every message and a line's ending names its kind.
public enum LineKind: Sendable {
  case ack, refused, update, ping, other

  public init(_ line: ArraySlice<UInt8>) {
    if line.hasSuffix(Self.ackEnding) { self = .ack }
    else if line.hasSuffix(Self.updateEnding) { self = .update }
    else if line.hasSuffix(Self.refusedEnding) { self = .refused }
    else if line.hasSuffix(Self.pingEnding) { self = .ping }
    else { self = .other }
  }

  private static let ackEnding = Array(#""type":"ack"}"#.utf8)
  private static let updateEnding = Array(#""type":"update"}"#.utf8)
  private static let refusedEnding = Array(#""type":"refused"}"#.utf8)
  private static let pingEnding = Array(#""type":"ping"}"#.utf8)
}

extension ArraySlice<UInt8> {
  public func hasSuffix(_ suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(endIndex - suffix.count)...].elementsEqual(suffix)
  }
}

extension LineSocket {
  /// The greeting every connection starts with, in the protocol this build speaks.
  public static let hello = ClientMessage.hello(protocolVersion: WireProtocol.version, client: nil).line
  /// The greeting of a window that asks for its updates at most once per `interval` ms.
  public static func hello(updateIntervalMilliseconds interval: Int) -> String {
    ClientMessage.hello(protocolVersion: WireProtocol.version, client: nil, updateIntervalMilliseconds: interval).line
  }
  /// The answer to the daemon's `ping`: a window that stays quiet must give it to stay attached.
  public static let pong = ClientMessage.pong.line

  /// A window of the daemon: connected, greeted, and attached to `scope`.
  public static func window(path: String, scope: String) throws -> LineSocket {
    try window(LineSocket(path: path), scope: scope)
  }

  /// `socket`, greeted (with `greeting`) and attached to `scope`.
  public static func window(_ socket: LineSocket, scope: String, greeting: String = hello) throws -> LineSocket {
    try socket.write(greeting)
    let welcome = try socket.expectLine()
    guard welcome.contains(#""type":"welcome""#) else { throw DriveError("expected welcome, got \(welcome)") }
    try socket.write(#"{"type":"attach","scope":"\#(scope)"}"# + "\n")
    let snapshot = try socket.expectLine()
    guard snapshot.contains(#""type":"snapshot""#) else { throw DriveError("expected snapshot, got \(snapshot)") }
    return socket
  }

  /// Sends the counter's `increment` numbered `(client, cseq)`.
  public func sendIncrement(client: String, cseq: Int64) throws {
    try write(#"{"action":{"increment":{}},"client":"\#(client)","cseq":\#(cseq),"scope":"counter","type":"send"}"# + "\n")
  }
}
