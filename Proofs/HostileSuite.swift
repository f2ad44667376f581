import ArgumentParser
struct HostileSuite: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "hostile", abstract: "Hostile.")
  func run() throws {}
}
