import ConcordWindow
import Testing

/// Tab completes the word being typed, as a shell does.
@Suite struct CompletionTests {
  let words = ["add", "archive", "assign", "unassign", "/open", "help"]

  @Test func oneCandidateCompletesTheWord() {
    #expect(Completion.complete("ass", among: words) == ("assign ", []))
    #expect(Completion.complete("/o", among: words) == ("/open ", []))
    #expect(Completion.complete("move 2 ASS", among: words) == ("move 2 assign ", []), "the last word, in any case")
  }

  @Test func severalAreExtendedToWhatTheyShareAndListed() {
    #expect(Completion.complete("a", among: words) == ("a", ["add", "archive", "assign"]))
    #expect(Completion.complete("ar", among: words) == ("archive ", []))
    #expect(Completion.complete("", among: ["assign", "assist"]) == ("assi", ["assign", "assist"]))
  }

  @Test func noCandidateLeavesTheLine() {
    #expect(Completion.complete("zz", among: words) == ("zz", []))
    #expect(Completion.complete("日本", among: words) == ("日本", []))
  }
}
