import ConcordLog
import ConcordReplay
import ConcordWindow
import Foundation
import Testing

/// The inspector window as a person uses it, without a terminal or a log: what it asks its
/// shell to read for each key, and what it shows.
@Suite struct InspectorModelTests {
  static func entry(_ seq: Int64, user: String = "alice", scope: String = "board", words: String? = nil, refused: String? = nil)
    -> InspectedEntry
  {
    InspectedEntry(
      seq: seq, at: Date(timeIntervalSince1970: 1_800_000_000 + Double(seq)), user: user, client: "w", cseq: seq, scope: scope,
      action: #"{"n":\#(seq)}"#, outcome: refused.map { .refused(reason: $0) } ?? .applied, words: words ?? "did \(seq)")
  }

  /// A window holding entries `range`, the log ending at `end`.
  static func window(_ range: ClosedRange<Int64>, end: Int64) -> InspectorModel {
    var model = InspectorModel(title: "log")
    _ = model.handle(.read(.page(range.map { entry($0) }, end: end, replacing: true, select: nil)))
    return model
  }

  @Test func itOpensOnTheNewestEntryAndFollows() {
    var model = Self.window(91...100, end: 100)
    #expect(model.selectedEntry?.seq == 100 && model.following)
    let frame = model.frame(columns: 80, rows: 12)
    #expect(frame.rows[0].contains("100 entries · following"), "\(frame.text)")
    #expect(frame.text.contains("did 100"))
  }

  @Test func steppingBackStopsFollowingAndAsksForEarlierEntriesAtTheTop() {
    var model = Self.window(91...100, end: 100)
    #expect(model.handle(.key(.up)).isEmpty)
    #expect(model.selectedEntry?.seq == 99 && !model.following)
    #expect(model.handle(.key(.home)) == [.earlier(before: 91)])
    // The earlier page joins above, and the selection stays on the entry it was on.
    _ = model.handle(.read(.page((81...90).map { Self.entry($0) }, end: 100, replacing: false, select: 90)))
    #expect(model.entries.count == 20 && model.selectedEntry?.seq == 90)
    // End goes back to following, and asks for anything newer.
    #expect(model.handle(.key(.end)) == [.later(after: 100)])
    #expect(model.following && model.selectedEntry?.seq == 100)
  }

  @Test func enterShowsTheChangeAndEscapeComesBack() {
    var model = Self.window(1...5, end: 5)
    _ = model.handle(.key(.up))
    #expect(model.handle(.key(.enter)) == [.change(seq: 4, wholeState: false)])
    #expect(model.handle(.key(.character("w"))) == [.change(seq: 4, wholeState: true)])
    _ = model.handle(.read(.lines(title: "entry 4", ["What it changed in board:", "  ~ title: \"a\" → \"b\""])))
    #expect(model.frame(columns: 60, rows: 10).text.contains("~ title"))
    _ = model.handle(.key(.escape))
    #expect(model.mode == .list)
    // Escape and q pressed together reach the window as one Alt-q: back, then quit.
    _ = model.handle(.read(.lines(title: "entry 4", ["…"])))
    #expect(model.handle(.key(.alt("q"))) == [.quit])
  }

  /// The bottom line names a few keys; `?` shows them all, with how a filter and a jump are
  /// written, and Escape comes back to the same entry.
  @Test func questionMarkShowsEveryKeyAndTheFilterWords() {
    var model = Self.window(1...5, end: 5)
    _ = model.handle(.key(.up))
    #expect(model.frame(columns: 120, rows: 10).text.contains("? keys"))
    #expect(model.handle(.key(.character("?"))) == [])
    let keys = model.frame(columns: 100, rows: 40).text
    for word in ["Enter", "what if it had not happened", "user=NAME", "scope=NAME", "outcome=applied", "since=TIME", "text=WORDS", "jump is a seq"] {
      #expect(keys.contains(word), "\(word) is not on the keys screen:\n\(keys)")
    }
    _ = model.handle(.key(.escape))
    #expect(model.mode == .list && model.selectedEntry?.seq == 4)
  }

  @Test func whatIfAsksForTheEntryOrItsAuthorsLaterOnes() {
    var model = Self.window(1...5, end: 5)
    #expect(model.handle(.key(.character("x"))) == [.whatIf(seq: 5, everythingOfItsAuthorFromIt: false)])
    #expect(model.handle(.key(.character("X"))) == [.whatIf(seq: 5, everythingOfItsAuthorFromIt: true)])
  }

  @Test func aTypedFilterStartsTheListOver() {
    var model = Self.window(1...5, end: 5)
    _ = model.handle(.key(.character("/")))
    for character in "user=bob scope=card: outcome=refused text=two words" { _ = model.handle(.key(.character(character))) }
    #expect(model.handle(.key(.enter)) == [.last])
    #expect(model.filter.user == "bob" && model.filter.scope == "card:" && model.filter.outcome == .refused)
    #expect(model.filter.text == "two words")
    // A filter it cannot read is said, and the old one kept.
    _ = model.handle(.key(.character("/")))
    for _ in 0..<80 { _ = model.handle(.key(.backspace)) }
    for character in "nonsense" { _ = model.handle(.key(.character(character))) }
    #expect(model.handle(.key(.enter)).isEmpty)
    #expect(model.notice?.contains("NAME=VALUE") == true && model.filter.user == "bob")
  }

  @Test func jumpTakesASeqOrATime() {
    var model = Self.window(1...5, end: 500)
    _ = model.handle(.key(.character("g")))
    for character in "#250" { _ = model.handle(.key(.character(character))) }
    #expect(model.handle(.key(.enter)) == [.around(seq: 250)])
    _ = model.handle(.key(.character("g")))
    for character in "2027-01-15T10:00:00Z" { _ = model.handle(.key(.character(character))) }
    #expect(model.handle(.key(.enter)) == [.at(time: Date(timeIntervalSince1970: 1_800_007_200))])
    _ = model.handle(.key(.character("g")))
    for character in "soon" { _ = model.handle(.key(.character(character))) }
    #expect(model.handle(.key(.enter)).isEmpty && model.notice?.contains("jump to a seq") == true)
  }

  /// What someone typed is shown, never obeyed: an escape sequence in a name or a title
  /// reaches the frame as visible text.
  @Test func textFromTheLogCannotDriveTheTerminal() {
    var model = InspectorModel(title: "log")
    let hostile = Self.entry(1, user: "m\u{1B}[31m", words: "added \u{1B}]0;pwned\u{07} #1\nsecond line")
    _ = model.handle(.read(.page([hostile], end: 1, replacing: true, select: nil)))
    let text = model.frame(columns: 120, rows: 6).text
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
    #expect(text.contains("m␛[31m") && text.contains("␛]0;pwned␇ #1␊second line"), "\(text)")
  }

  @Test func aRefusedEntrySaysWhyFirst() {
    var model = InspectorModel(title: "log")
    _ = model.handle(.read(.page([Self.entry(1, words: nil, refused: "there is no card #9")], end: 1, replacing: true, select: nil)))
    let frame = model.frame(columns: 80, rows: 6)
    #expect(frame.rows[1].contains("✗ there is no card #9"), "\(frame.text)")
  }
}
