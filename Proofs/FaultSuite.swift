import ArgumentParser

struct FaultSuite: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "fault", abstract: "Faults.")
  func run() throws {}
}
struct SoakSuite: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "soak", abstract: "Soak.")
  func run() throws {}
}
struct HostileSuite: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "hostile", abstract: "Hostile.")
  func run() throws {}
}
