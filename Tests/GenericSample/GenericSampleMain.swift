import ConcordCommandLine
import SampleApp

/// `generic-sample`: the sample app as a program of its own with no look of its own — every
/// scope in a generic window — for the end-to-end tests of generic windows and of a program
/// that runs its daemon itself (`generic-sample daemon start` runs `generic-sample daemon run`).
@main
enum GenericSampleMain {
  static func main() { ConcordProgram(name: "generic-sample", app: SampleApp.hosted).run() }
}
