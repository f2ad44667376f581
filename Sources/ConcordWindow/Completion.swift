import ConcordApp

/// Tab on the command line: the word being typed completed from the words that fit there.
///
/// One candidate completes the word (and adds a space); several extend it to what they share
/// and are listed; none leaves it.
///
/// ```swift
/// Completion.complete("ass", among: ["assign", "archive", "add"])   // ("assign ", [])
/// Completion.complete("a", among: ["assign", "archive", "add"])     // ("a", ["add", "archive", "assign"])
/// ```
public enum Completion {
  /// `line` with its last word completed, and the candidates when there is more than one.
  public static func complete(_ line: String, among words: [String]) -> (line: String, choices: [String]) {
    complete(line, among: words.map { WordChoice($0) })
  }

  /// `line` with its last word completed from `choices`, and the candidates when there is more
  /// than one, each with its note (`7 Fix login`).
  public static func complete(_ line: String, among choices: [WordChoice]) -> (line: String, choices: [String]) {
    let start = line.lastIndex(of: " ").map { line.index(after: $0) } ?? line.startIndex
    let typed = line[start...].lowercased()
    var seen: Set<String> = []
    let matches = choices.filter { $0.word.lowercased().hasPrefix(typed) && seen.insert($0.word).inserted }
      .sorted(by: inOrder)
    guard let first = matches.first?.word else { return (line, []) }
    if matches.count == 1 { return (line[..<start] + first + " ", []) }
    var shared = first
    for match in matches.dropFirst() {
      while !match.word.lowercased().hasPrefix(shared.lowercased()) { shared.removeLast() }
    }
    // A number shared by several (`#1` of #1, #12, #13) would read as a choice made: the list
    // is offered instead, and the person types the number they mean.
    if matches.contains(where: { $0.word.lowercased() == shared.lowercased() }), Self.isNumber(shared) { shared = String(typed) }
    let extended = shared.count > typed.count ? line[..<start] + shared : line
    return (extended, matches.map { choice in choice.note.map { "\(choice.word) \($0)" } ?? choice.word })
  }

  /// True for a number as a card's is written: `7` or `#7`.
  static func isNumber(_ word: String) -> Bool {
    Int(word.hasPrefix("#") ? String(word.dropFirst()) : word) != nil
  }

  /// Numbers (`7`, `#12`) by their value, the rest alphabetically.
  static func inOrder(_ a: WordChoice, _ b: WordChoice) -> Bool {
    func number(_ word: String) -> Int? { Int(word.hasPrefix("#") ? String(word.dropFirst()) : word) }
    if let x = number(a.word), let y = number(b.word) { return x < y }
    return a.word < b.word
  }
}
