// fuzz-wire: how lines from the wire become messages, on both ends.
//
// The input is one line (a trailing newline is dropped), read:
// - by the daemon: `ClientMessage(line:)`, JSONParser and the field readers;
// - by a window: `WireCoding.decode(ServerMessage.self, from:)`, JSONDecoder and Codable;
// - as plain JSON: JSONParser, whose values must survive `jsonText` both ways.
// It is also fed as a byte stream, in small chunks, through `LineFraming` (the framing both the
// daemon's pipeline and the client ask), and the lines that come out must be the ones a plain
// split at newlines gives.
// A thrown error is fine; a trap, a hang, a huge allocation, or a message that does not read
// back as itself from its own line is a finding.
import ConcordWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  // libFuzzer's own buffer, exactly `size` bytes long, so that AddressSanitizer (when on) sees
  // a read past the end of the line.
  let input = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
  var end = size
  if end > 0, input[end - 1] == UInt8(ascii: "\n") { end -= 1 }
  if end > 0, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
  let line = UnsafeBufferPointer(rebasing: input[..<end])
  let bytes = Array(input)

  checkJSON(line)
  checkClientLine(line)
  checkServerLine(line)
  // The whole input as a stream: the default limit, chunks of 1 to 8 bytes.
  checkFraming(bytes, maximumBytes: WireLimits.maximumMessageBytes, chunk: 1 + Int((bytes.first ?? 0) % 8))
  // A small limit, so that short inputs reach it too.
  checkFraming(bytes, maximumBytes: 24, chunk: 3)
  return 0
}

// MARK: - JSON

/// A parsed value's text parses back to the value, with JSONParser (the daemon) and with
/// JSONDecoder (windows, and the daemon decoding an action into the app's type).
func checkJSON(_ line: UnsafeBufferPointer<UInt8>) {
  guard let value = try? JSONParser.parse(line) else { return }
  let text = value.jsonText
  if text.utf8.contains(UInt8(ascii: "\n")) { finding("jsonText holds a raw newline: \(text)") }
  do {
    let again = try JSONParser.parse(Array(text.utf8))
    guard again == value else { finding("JSONParser(jsonText(v)) != v\n\(text)") }
  } catch {
    finding("JSONParser refuses jsonText: \(error)\n\(text)")
  }
  do {
    let decoded = try decoder.decode(JSONValue.self, from: Data(text.utf8))
    guard decoded == value else { finding("JSONDecoder(jsonText(v)) != v\n\(text)\n\(decoded.jsonText)") }
  } catch {
    finding("JSONDecoder refuses jsonText: \(error)\n\(text)")
  }
}

// MARK: - What the daemon reads

func checkClientLine(_ line: UnsafeBufferPointer<UInt8>) {
  // The daemon's path (ConnectionHandler).
  if let message = try? ClientMessage(line: line) {
    checkClientRoundTrip(message)
  }
  // The Codable path (WireCoding), which goes through the same reading.
  if let message = try? coding.decode(ClientMessage.self, from: line) {
    checkClientRoundTrip(message)
  }
}

func checkClientRoundTrip(_ message: ClientMessage) {
  let line = message.line
  guard line.utf8.last == UInt8(ascii: "\n"), line.utf8.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil else {
    finding("a client message's line is not one line: \(line.debugDescription)")
  }
  let text = Array(line.utf8.dropLast())
  do {
    let again = try ClientMessage(line: text)
    guard again == message else { finding("ClientMessage changes through its line: \(line)") }
  } catch {
    finding("ClientMessage's own line does not read back: \(error)\n\(line)")
  }
  do {
    let again = try coding.decode(ClientMessage.self, from: text)
    guard again == message else { finding("ClientMessage changes through WireCoding: \(line)") }
  } catch {
    finding("WireCoding cannot read a ClientMessage's line: \(error)\n\(line)")
  }
}

// MARK: - What a window reads

func checkServerLine(_ line: UnsafeBufferPointer<UInt8>) {
  // The window's path (ClientConnection.nextBufferedMessage).
  guard let message = try? coding.decode(ServerMessage.self, from: line) else { return }
  let text = message.line
  guard text.utf8.last == UInt8(ascii: "\n"), text.utf8.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil else {
    finding("a server message's line is not one line: \(text.debugDescription)")
  }
  let body = Array(text.utf8.dropLast())
  guard (try? JSONParser.parse(body)) == message.jsonValue else { finding("line and jsonValue disagree: \(text)") }
  if case let .update(scope, seq, .reset(state)) = message {
    // Given no room for a diff (newBytes 0), the daemon's fast writer sends the state whole: the
    // line this message writes. From a state equal to it there is nothing to send.
    let fast = ServerMessage.updateLine(scope: scope, seq: seq, from: .null, to: state, newBytes: 0)
    guard fast == (state == .null ? nil : text) else { finding("updateLine != line\n\(fast ?? "nil")\n\(text)") }
  }
  // Integers are exact on the wire (JSONValue.integer): every message survives its line.
  do {
    let again = try coding.decode(ServerMessage.self, from: body)
    guard again == message else { finding("ServerMessage changes through its line: \(text)") }
  } catch {
    finding("ServerMessage's own line does not read back: \(error)\n\(text)")
  }
}

// MARK: - Framing

/// Feeds `bytes` in chunks through `LineFraming` and compares the lines it
/// passes on with a plain split at `\n` (a trailing `\r` dropped, and not counted); a line
/// longer than the limit must stop the stream with `lineTooLong`, after the lines before it.
/// Each line is then read as the daemon reads it.
func checkFraming(_ bytes: [UInt8], maximumBytes: Int, chunk: Int) {
  // The model.
  var expected: [[UInt8]] = []
  var expectTooLong = false
  var start = 0
  for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
    var line = Array(bytes[start..<index])
    start = index + 1
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if line.count > maximumBytes {
      expectTooLong = true
      break
    }
    expected.append(line)
  }
  // An unfinished line may still be one that fits and ends `\r`, one byte over.
  let tail = bytes[start...]
  if !expectTooLong, tail.count > maximumBytes + 1 || (tail.count == maximumBytes + 1 && tail.last != UInt8(ascii: "\r")) {
    expectTooLong = true
  }

  // The framing.
  var framing = LineFraming(maximumBytes: maximumBytes)
  var buffer = ReadBuffer()
  var lines: [[UInt8]] = []
  var tooLong = false
  var offset = 0
  while offset < bytes.count, !tooLong {
    let end = min(bytes.count, offset + chunk)
    buffer.append(bytes[offset..<end])
    offset = end
    do {
      while let line = try framing.nextLine(in: buffer.unread) {
        let content = buffer.unread[line.content]
        lines.append(Array(content))
        _ = try? ClientMessage(line: content)
        buffer.take(upTo: line.end)
      }
    } catch {
      tooLong = true
    }
  }

  guard tooLong == expectTooLong else {
    finding("lineTooLong: \(tooLong), expected \(expectTooLong) (limit \(maximumBytes), chunk \(chunk))")
  }
  guard lines == expected else {
    finding("LineFraming passed on \(lines.count) lines, expected \(expected.count) (limit \(maximumBytes), chunk \(chunk))")
  }
}

// MARK: - Support

nonisolated(unsafe) let coding = WireCoding()
let decoder = JSONDecoder()

/// A broken property: print why and trap, so libFuzzer keeps the input as a crash.
func finding(_ message: String) -> Never {
  fatalError("fuzz-wire finding: \(message)")
}
