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
    let start = line.lastIndex(of: " ").map { line.index(after: $0) } ?? line.startIndex
    let typed = line[start...].lowercased()
    let matches = Array(Set(words.filter { $0.lowercased().hasPrefix(typed) })).sorted()
    guard let first = matches.first else { return (line, []) }
    if matches.count == 1 { return (line[..<start] + first + " ", []) }
    var shared = first
    for match in matches.dropFirst() {
      while !match.lowercased().hasPrefix(shared.lowercased()) { shared.removeLast() }
    }
    let extended = shared.count > typed.count ? line[..<start] + shared : line
    return (extended, matches)
  }
}
