import DaemonDriving
import Foundation
import Testing

/// Every `concord …` and `concordd …` the README and docs/ show, in code blocks and in inline
/// code, names subcommands and flags the program knows, where they stand: the commands'
/// definitions (`--experimental-dump-help`) are the reference, not our memory of them.
@Suite struct DocumentedCommandsTests {
  /// A command's flags and its subcommands, from the program's own description of itself.
  struct Command {
    var flags: Set<String> = []
    var subcommands: [String: Command] = [:]
    /// Whether it takes positional arguments: if not, a word after it must be a subcommand.
    var takesArguments = false

    init(_ json: [String: Any]) {
      for argument in json["arguments"] as? [[String: Any]] ?? [] {
        if argument["kind"] as? String == "positional" { takesArguments = true }
        for name in argument["names"] as? [[String: Any]] ?? [] {
          guard let kind = name["kind"] as? String, let text = name["name"] as? String else { continue }
          flags.insert((kind == "long" ? "--" : "-") + text)
        }
      }
      for subcommand in json["subcommands"] as? [[String: Any]] ?? [] {
        if let name = subcommand["commandName"] as? String { subcommands[name] = Command(subcommand) }
      }
    }
  }

  /// Flags every program built on swift-argument-parser takes.
  static let builtIn: Set<String> = ["--help", "-h", "--version", "--generate-completion-script", "--experimental-dump-help"]

  static func command(_ binary: URL) throws -> Command {
    let dumped = try Spawn.run(binary.path, ["--experimental-dump-help"], output: .capture)
    let json = try JSONSerialization.jsonObject(with: Data(dumped.output.utf8)) as? [String: Any]
    return Command(json?["command"] as? [String: Any] ?? [:])
  }

  /// The texts of a page a shell would run: the lines of its code blocks and its inline code.
  static func snippets(of page: String) -> [String] {
    var snippets: [String] = []
    var inBlock = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inBlock.toggle()
        continue
      }
      if inBlock { snippets.append(String(line)) } else { snippets += line.matches(of: /`([^`]+)`/).map { String($0.1) } }
    }
    return snippets
  }

  /// What each use of `program` in `snippet` names that `root` does not know.
  static func unknown(in snippet: String, program: String, root: Command) -> (checked: Int, unknown: [String]) {
    // Quoted text is an argument's value, never a flag; a shell comment is prose.
    let bare = snippet.replacing(/'[^']*'|"[^"]*"/, with: "VALUE").replacing(/(^|\s)#.*$/, with: "")
    var checked = 0
    var unknown: [String] = []
    // The program's name as a word, then its words up to what ends a shell command.
    guard let use = try? Regex("(?:^|[\\s(=])\(program)(?![\\w.-])((?:[ \\t]+[^\\s|;&#)`<>]+)*)") else { return (0, []) }
    for match in bare.matches(of: use) {
      var command = root
      var path = [program]
      let said = match.output[1].substring ?? ""
      var words = said.split(whereSeparator: { $0.isWhitespace }).map(String.init)[...]
      while let word = words.first, let subcommand = command.subcommands[word] {
        command = subcommand
        path.append(word)
        words = words.dropFirst()
      }
      // A word where only a subcommand may stand (not a flag, not a placeholder such as
      // SCOPE or …) names a subcommand the program does not have.
      if let word = words.first, !command.subcommands.isEmpty, !command.takesArguments, !word.hasPrefix("-"),
        word.first?.isLowercase == true
      {
        checked += 1
        unknown.append("\(path.joined(separator: " ")) \(word) (no such subcommand)")
      }
      for word in words {
        if word == "--" { break }  // what follows is another program's
        let flag = String(word.trimmingCharacters(in: CharacterSet(charactersIn: "[],.")).split(separator: "=")[0])
        guard flag.hasPrefix("-"), flag.count > 1, flag.dropFirst().first?.isNumber == false else { continue }
        checked += 1
        if !command.flags.contains(flag), !builtIn.contains(flag) { unknown.append("\(path.joined(separator: " ")) \(flag)") }
      }
    }
    return (checked, unknown)
  }

  @Test func theDocsNameOnlyWhatTheCommandsKnow() throws {
    let programs = [
      ("concord", try Self.command(ConcordCLI.binary)), ("concordd", try Self.command(DaemonUnderTest.binary)),
    ]
    var pages = ["README.md"]
    if let walker = FileManager.default.enumerator(atPath: Repository.root.appending(path: "docs").path) {
      for case let path as String in walker where path.hasSuffix(".md") { pages.append("docs/" + path) }
    }
    var checked = 0
    var unknown: [String] = []
    for page in pages {
      let text = try String(contentsOf: Repository.root.appending(path: page), encoding: .utf8)
      for snippet in Self.snippets(of: text) {
        for (program, root) in programs {
          let found = Self.unknown(in: snippet, program: program, root: root)
          checked += found.checked
          unknown += found.unknown.map { "\(page): \($0)  —  \(snippet.trimmingCharacters(in: .whitespaces))" }
        }
      }
    }
    #expect(checked > 15, "only \(checked) flags were found to check")
    #expect(unknown.isEmpty, "flags the commands do not know:\n\(unknown.joined(separator: "\n"))")
  }

  /// The checker itself, on a line whose flag stands before its subcommand: the program refuses
  /// that (`Unknown option '--host'`), and so must the check.
  @Test func aFlagBeforeItsSubcommandIsUnknown() throws {
    let concord = try Self.command(ConcordCLI.binary)
    #expect(Self.unknown(in: "concord --host ssh://a@b attach board", program: "concord", root: concord).unknown == ["concord --host"])
    #expect(Self.unknown(in: "concord attach board --host ssh://a@b", program: "concord", root: concord).unknown.isEmpty)
    #expect(Self.unknown(in: "concord daemon start -- --allow-group team", program: "concord", root: concord).unknown.isEmpty)
    #expect(Self.unknown(in: "concord deamon start", program: "concord", root: concord).unknown == ["concord deamon (no such subcommand)"])
  }
}
