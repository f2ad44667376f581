import ArgumentParser
struct SoakSuite: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "soak", abstract: "Soak.")
  func run() throws {}
}
