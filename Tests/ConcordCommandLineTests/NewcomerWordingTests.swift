import DaemonDriving
import Foundation
import Testing

/// What a person new to Concord reads when a command goes wrong or succeeds: the scope's own
/// terms, never a type of the program, and on the command line a pointer that works there.
@Suite(.serialized) struct NewcomerWordingTests {
  @Test func aMistakenActionIsSaidInTheScopesTermsAndPointsToItsWords() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    func send(_ action: String, to scope: String = "board") throws -> ConcordCLI.Result {
      try ConcordCLI.run(["send", scope, action], home: daemon.home, app: "workspace")
    }
    // A member the scope does not take: named, and where the scope's actions are listed.
    let unknown = try send(#"{"nope":1}"#)
    #expect(unknown.status == 2)
    #expect(unknown.error.contains(#""nope" is not one of board's actions (`concord words board` lists them)"#), "\(unknown.error)")
    // A field of the wrong kind: the JSON kind it should be.
    let wrongKind = try send(#"{"addCard":{"title":5}}"#)
    #expect(wrongKind.error.contains("that board action is not well formed: addCard.title should be text (a JSON string)"), "\(wrongKind.error)")
    let wrongNumber = try send(#"{"moveCard":{"id":"two","column":"done"}}"#)
    #expect(wrongNumber.error.contains("moveCard.id should be a whole number"), "\(wrongNumber.error)")
    // A word the scope does not have: on the command line there is no `help` to type.
    let help = try send("help")
    #expect(help.status == 2)
    #expect(help.error.contains(#"no command "help" (`concord words board` lists them)"#), "\(help.error)")
    let card = try send("hlep", to: "card:1")
    #expect(card.error.contains("`concord words card:1` lists them"), "\(card.error)")
    for answer in [unknown, wrongKind, wrongNumber, help, card] {
      for typeName in ["BoardAction", "CardAction", "String", "Int", "`help` lists"] {
        #expect(!answer.error.contains(typeName), "\(answer.error)")
      }
    }
    // The pointer works: `words` lists the actions, with their JSON.
    let words = try ConcordCLI.run(["words", "board"], home: daemon.home, app: "workspace")
    #expect(words.status == 0 && words.output.contains(#"{"addCard":"#), "\(words.output)")
  }

  /// `add Talk to Bob` reads as a card for a column "Bob": the refusal says how to keep the
  /// whole line as the title, and the quoted line is a card.
  @Test func aTitleWithToInItIsExplainedWhenNoSuchColumnExists() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer {
      _ = daemon.terminate()
      daemon.removeHome()
    }
    let unquoted = try ConcordCLI.run(["send", "board", "add Talk to Bob"], home: daemon.home, app: "workspace")
    #expect(unquoted.status == 1)
    #expect(
      unquoted.error.contains(#"there is no column "Bob"; the columns are todo, doing, done; for a card titled "Talk to Bob", quote it: add "Talk to Bob""#),
      "\(unquoted.error)")
    let quoted = try ConcordCLI.run(["send", "board", #"add "Talk to Bob""#], home: daemon.home, app: "workspace")
    #expect(quoted.status == 0, "\(quoted.error)")
    let board = try ConcordCLI.run(["state", "board"], home: daemon.home, app: "workspace")
    #expect(board.output.contains(#""title":"Talk to Bob""#), "\(board.output)")
    // A column that exists is still taken.
    let toDoing = try ConcordCLI.run(["send", "board", "add Write docs to doing"], home: daemon.home, app: "workspace")
    #expect(toDoing.status == 0, "\(toDoing.error)")
  }

  @Test func stateIsOneLineWhenPipedAndSaysQuietlyThatItReadTheLog() throws {
    let daemon = try DaemonUnderTest(app: "workspace").start()
    defer { daemon.removeHome() }
    _ = try ConcordCLI.run(["send", "board", "add Piped"], home: daemon.home, app: "workspace")
    _ = daemon.terminate()
    for arguments in [["state", "board"], ["state", "board", "--compact"]] {
      let state = try ConcordCLI.run(arguments, home: daemon.home, app: "workspace")
      #expect(state.status == 0, "\(state.error)")
      #expect(state.output.split(separator: "\n").count == 1 && state.output.contains("Piped"), "\(state.output)")
      // With the daemon stopped, it worked from the log: said once, with no call to start it.
      #expect(state.error == "read from the log, as of entry 2\n", "\(state.error)")
    }
  }
}
