import ConcordWire
import DaemonDriving
import Foundation
import Testing

/// A string is the same string everywhere: in the reducer, in SQLite, in the chain hash, on the
/// wire and in the export. Checked through the real daemon, a raw socket and the real `concord`,
/// with the lines read as bytes and parsed by Foundation's JSONSerialization, not by our parser.
@Suite(.serialized) struct TextBoundaryTests {
  /// The schema's rule for a client id, restated here as the model: 1 to 128 bytes, each
  /// printable ASCII from `!` to `~`, and not the daemon's own "concordd".
  static func isClientID(_ id: String) -> Bool {
    (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7E).contains($0) } && id != "concordd"
  }

  static func hostileClientIDs() -> [String] {
    var random = SystemRandomNumberGenerator()
    var ids = [
      "me\u{0}", "concordd\u{0}", "concordd", "", " ", "a b", "tab\t", "bell\u{7}", "del\u{7F}", "caf\u{E9}",
      "cafe\u{301}", "😀", "漢字", String(repeating: "x", count: 129), String(repeating: "y", count: 128), "!~",
      "c-0f3e9a2b-1c4d-4e5f-8a9b-0c1d2e3f4a5b",
    ]
    for _ in 0..<40 {
      let length = Int.random(in: 1...130, using: &random)
      ids.append(String(decoding: (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &random) }, as: UTF8.self))
    }
    return ids
  }

  @Test func onlyClientIDsOfOneSpellingAreTakenAndTheLogStaysWhole() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("counter")
    var accepted: [String] = []
    for id in Self.hostileClientIDs() where !accepted.contains(where: { Array($0.utf8) == Array(id.utf8) }) {
      try peer.send(.send(scope: "counter", action: ["increment": [:]], client: id, cseq: 1))
      let answers = try peer.receive {
        switch $0 {
        case .ack, .refused, .error: true
        default: false
        }
      }
      switch answers.last {
      case .ack?:
        #expect(Self.isClientID(id), "the daemon took the client id \(Array(id.utf8))")
        accepted.append(id)
      case let .error(code, message, _)?:
        #expect(!Self.isClientID(id), "the daemon refused the client id \(id): \(message)")
        #expect(code == .badMessage)
      default:
        Issue.record("unexpected answer for \(Array(id.utf8)): \(String(describing: answers.last))")
      }
    }
    #expect(daemon.terminate() == 0)

    let verify = try ConcordCLI.run(["log", "verify"], home: daemon.home)
    #expect(verify.status == 0, "\(verify.error)")
    let export = try ConcordCLI.run(["log", "export", "--format", "jsonl"], home: daemon.home)
    #expect(export.status == 0, "\(export.error)")
    let exported = Self.records(export.output).compactMap { $0["client"] as? String }
    for id in accepted {
      #expect(exported.filter { Array($0.utf8) == Array(id.utf8) }.count == 1, "\(id) in the export")
    }

    let restarted = try DaemonUnderTest(home: daemon.home).start()
    let reader = try LineSocket(path: restarted.socketPath)
    try reader.hello()
    #expect(try reader.attach("counter").int64 == Int64(accepted.count))
    #expect(restarted.terminate() == 0)
  }

  /// Canonically equivalent spellings (facts of the Unicode standard, not of our code) and texts
  /// that cross C and JSON boundaries badly.
  static let spellings: [(sent: String, stored: String)] = [
    ("cafe\u{301}", "caf\u{E9}"),
    ("\u{1100}\u{1161}", "\u{AC00}"),  // Hangul jamo → the syllable 가
    ("\u{212B}ngstr\u{F6}m", "\u{C5}ngstr\u{F6}m"),  // the Angstrom sign → Å
    ("nul\u{0}inside", "nul\u{0}inside"),
    ("controls \u{1}\u{1F}\u{7F}\r\n", "controls \u{1}\u{1F}\u{7F}\r\n"),
    ("👩‍👩‍👧 family, 🇯🇵 flag", "👩‍👩‍👧 family, 🇯🇵 flag"),
    ("漢字とかな", "漢字とかな"),
    (String(repeating: "long ", count: 20_000), String(repeating: "long ", count: 20_000)),
  ]

  @Test func textIsTakenInOneSpellingAndComesBackByteForByteAfterARestart() throws {
    let daemon = try DaemonUnderTest().start()
    defer { daemon.removeHome() }
    let peer = try LineSocket(path: daemon.socketPath)
    try peer.hello()
    _ = try peer.attach("notes")
    for (index, spelling) in Self.spellings.enumerated() {
      try peer.send(.send(scope: "notes", action: ["add": ["text": .string(spelling.sent)]], client: "t", cseq: Int64(index + 1)))
      try peer.receive { if case .ack(_, Int64(index + 1), _) = $0 { true } else { false } }
    }
    func expectStored(_ socket: String) throws {
      let reader = try LineSocket(path: socket)
      try reader.hello()
      try reader.write(#"{"type":"attach","scope":"notes"}"# + "\n")
      let line = try #require(try reader.readLine())
      let snapshot = try #require(Self.object(line))
      let notes = try #require(snapshot["state"] as? [[String: Any]])
      #expect(notes.count == Self.spellings.count)
      for (note, spelling) in zip(notes, Self.spellings) {
        let text = note["text"] as? String ?? ""
        #expect(Array(text.utf8) == Array(spelling.stored.utf8), "\(spelling.sent.unicodeScalars.prefix(12).map(\.value))")
      }
    }
    try expectStored(daemon.socketPath)
    #expect(daemon.terminate() == 0)
    let restarted = try DaemonUnderTest(home: daemon.home).start()
    try expectStored(restarted.socketPath)
    #expect(restarted.terminate() == 0)
    let verify = try ConcordCLI.run(["log", "verify"], home: daemon.home)
    #expect(verify.status == 0, "\(verify.error)")
  }

  static func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? [String: Any]
  }

  static func records(_ export: String) -> [[String: Any]] {
    export.split(separator: "\n").compactMap { object(String($0)) }
  }
}
