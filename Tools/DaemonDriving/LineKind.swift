import Foundation

/// What a driver needs to know of the daemon's lines: which kind each one is. Keys are
/// sorted, so `type` is the last key of every message and a line's ending names its kind.
public enum LineKind: Sendable {
  case ack, refused, update, other

  public init(_ line: ArraySlice<UInt8>) {
    if line.hasSuffix(Self.ackEnding) { self = .ack }
    else if line.hasSuffix(Self.updateEnding) { self = .update }
    else if line.hasSuffix(Self.refusedEnding) { self = .refused }
    else { self = .other }
  }

  private static let ackEnding = Array(#""type":"ack"}"#.utf8)
  private static let updateEnding = Array(#""type":"update"}"#.utf8)
  private static let refusedEnding = Array(#""type":"refused"}"#.utf8)
}

extension ArraySlice<UInt8> {
  public func hasSuffix(_ suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(endIndex - suffix.count)...].elementsEqual(suffix)
  }
}

extension LineSocket {
  /// A window of the daemon: connected, greeted, and attached to `scope`.
  public static func window(path: String, scope: String) throws -> LineSocket {
    let socket = try LineSocket(path: path)
    try socket.write(#"{"type":"hello","protocol":1}"# + "\n")
    let welcome = try socket.readLine()
    guard welcome.contains(#""type":"welcome""#) else { throw DriveError("expected welcome, got \(welcome)") }
    try socket.write(#"{"type":"attach","scope":"\#(scope)"}"# + "\n")
    let snapshot = try socket.readLine()
    guard snapshot.contains(#""type":"snapshot""#) else { throw DriveError("expected snapshot, got \(snapshot)") }
    return socket
  }

  /// Sends the counter's `increment` numbered `(client, cseq)`.
  public func sendIncrement(client: String, cseq: Int64) throws {
    try write(#"{"action":{"increment":{}},"client":"\#(client)","cseq":\#(cseq),"scope":"counter","type":"send"}"# + "\n")
  }
}
